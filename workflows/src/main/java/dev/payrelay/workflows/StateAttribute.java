package dev.payrelay.workflows;

import io.temporal.common.SearchAttributeKey;
import io.temporal.workflow.Async;
import io.temporal.workflow.Workflow;
import java.util.function.Supplier;

/**
 * Keeps a state search attribute ({@code PaymentState}) equal to the state a run shows, under
 * {@link StartAttributes}: one upsert once no local activity is under way and the state held
 * through one more round of the run's threads, so a state that is shown and overwritten within one
 * workflow task (PAID, then FULFILLED once the grant and the publish are back from their local
 * activities) costs no command of its own.
 *
 * <p>Its own workflow thread: the SDK runs a workflow's threads round by round in the order they
 * were created, so a state it sees is written by a new thread in the next round, after every other
 * thread moved again, and only if it still holds (else the state it became is looked at the same
 * way); a run whose main method returns still gets its last state written before the run completes.
 * A state change while a local activity runs is written once every local activity of the run is
 * back ({@link LocalFirst#inFlight}); when that one attempt fails and the step goes durable, before
 * the durable activity's task. The {@code state} query and the current details show every state at
 * once.
 *
 * <p>Nothing is written when a run continues as new: the next run starts with this run's attributes
 * and writes its own state when it differs.
 */
final class StateAttribute {

  private final SearchAttributeKey<String> key;
  private final Supplier<String> shown;
  private String written;

  /**
   * A writer of {@code key}.
   *
   * @param shown the state the run shows now, by name
   */
  StateAttribute(SearchAttributeKey<String> key, Supplier<String> shown) {
    this.key = key;
    this.shown = shown;
  }

  /**
   * Starts writing, from the value the run's search attributes hold now (its start's, or what the
   * run already upserted). Call it once, after the run's story stopped upserting itself ({@link
   * PaymentStory#deferUpserts}).
   */
  void start() {
    written = StartAttributes.held(key);
    Async.procedure(this::serve);
  }

  private void serve() {
    while (true) {
      Workflow.await(this::due);
      String seen = shown.get();
      // Looks again after one more round of the run's threads (a new thread runs after all the
      // others): a state they change in answer to this one, e.g. FULFILLED once the grant that
      // followed PAID is back, is written instead of it.
      Async.procedure(() -> writeIfStill(seen)).get();
    }
  }

  /** Whether the shown state differs from the attribute and no local activity is under way. */
  private boolean due() {
    return LocalFirst.inFlight() == 0 && !shown.get().equals(written);
  }

  private void writeIfStill(String seen) {
    if (due() && shown.get().equals(seen)) {
      written = seen;
      Workflow.upsertTypedSearchAttributes(key.valueSet(written));
    }
  }
}

package dev.payrelay.workflows;

import io.temporal.common.SearchAttributeKey;
import io.temporal.common.SearchAttributeUpdate;
import io.temporal.common.SearchAttributes;
import io.temporal.workflow.Workflow;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The rule of {@code Workflow.getVersion("start-attributes")} = 1: a run does not upsert again the
 * search attributes its start already carries (the dispatcher sets them in the start's {@code
 * WorkflowOptions}, and continue-as-new carries them over), and its state attribute is written by a
 * {@link StateAttribute} at most once per workflow task instead of at every change. Before it,
 * every run upserted all its attributes first thing, and every shown state in its own command.
 *
 * <p>Why: per Temporal Cloud's rules each {@code UpsertWorkflowSearchAttributes} command is a
 * billable action while attributes set at start are not (https://docs.temporal.io/cloud/actions,
 * "Search Attribute upsert requested"); a happy-path payment upserted three times, of which one
 * repeated its start and one was overwritten in the same workflow task before anyone could see it.
 */
final class StartAttributes {

  /** The {@code Workflow.getVersion} change id. */
  static final String CHANGE_ID = "start-attributes";

  /** The version whose runs follow this rule. */
  static final int VERSION = 1;

  private StartAttributes() {}

  /** Whether this run follows the rule (records the marker in a new run). */
  static boolean applies() {
    return Workflow.getVersion(CHANGE_ID, Workflow.DEFAULT_VERSION, VERSION) >= VERSION;
  }

  /**
   * Upserts, in one command, those of {@code wanted} whose value the run's search attributes do not
   * hold yet; no command when they hold them all (a run started by the dispatcher or continued as
   * new).
   */
  static void upsertMissing(List<SearchAttributeUpdate<String>> wanted) {
    SearchAttributes held = Workflow.getTypedSearchAttributes();
    List<SearchAttributeUpdate<?>> missing = new ArrayList<>();
    for (SearchAttributeUpdate<String> update : wanted) {
      if (!Objects.equals(update.getValue().orElse(null), held.get(update.getKey()))) {
        missing.add(update);
      }
    }
    if (!missing.isEmpty()) {
      Workflow.upsertTypedSearchAttributes(missing.toArray(SearchAttributeUpdate<?>[]::new));
    }
  }

  /** {@code key}'s value in the run's search attributes now, or null when it has none. */
  static String held(SearchAttributeKey<String> key) {
    return Workflow.getTypedSearchAttributes().get(key);
  }
}

package dev.payrelay.workflows;

import dev.payrelay.workflows.activities.RefundActivities;
import dev.payrelay.workflows.activities.RefundResolveRequest;
import dev.payrelay.workflows.activities.RefundResolveResult;
import io.temporal.activity.ActivityOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * A refund's operator signals ({@code requery}, {@code acceptAsRefunded}, {@code markFailed}),
 * served one at a time on their own workflow thread. Each takes its action key ({@link
 * OperatorActionKeys}) in its signal handler and goes to the resolve activity, which audits it in
 * {@code operator_action} with its effect in one transaction and answers a retry from that row; an
 * invalid signal is audited REJECTED, never ignored.
 */
final class RefundDesk {

  /** Audits must not be lost to an outage: retried until the database answers. */
  private static final ActivityOptions RESOLVE_OPTIONS =
      DatabaseActivityOptions.untilTheDatabaseAnswers(
          // One short transaction with its audit row.
          Duration.ofSeconds(30), RefundWatch.REFUND_NOT_FOUND);

  static final String REQUERY = "REQUERY";
  static final String ACCEPT_AS_REFUNDED = "ACCEPT_AS_REFUNDED";
  static final String MARK_FAILED = "MARK_FAILED";

  private record Asked(String action, RefundSignal signal, String key) {}

  private final RefundActivities activities =
      Workflow.newActivityStub(RefundActivities.class, RESOLVE_OPTIONS);
  private final OperatorActionKeys keys = new OperatorActionKeys();
  private final Deque<Asked> queue = new ArrayDeque<>();
  private final RefundStory story;
  private final RefundWatch watch;
  private boolean serving;

  RefundDesk(RefundStory story, RefundWatch watch) {
    this.story = story;
    this.watch = watch;
  }

  /** Queues an operator's {@code action}; call in its signal handler (takes its key there). */
  void ask(String action, RefundSignal signal) {
    queue.add(new Asked(action, signal, keys.next()));
  }

  /** Whether no signal is queued or being served. */
  boolean idle() {
    return queue.isEmpty() && !serving;
  }

  /** Serves queued signals in order, forever; its own workflow thread. */
  void serve() {
    while (true) {
      Workflow.await(() -> !queue.isEmpty());
      serving = true;
      try {
        serveOne(queue.poll());
      } finally {
        serving = false;
      }
    }
  }

  private void serveOne(Asked asked) {
    RefundSignal s = asked.signal() == null ? new RefundSignal(null, null) : asked.signal();
    String invalid = s.invalidBecause(ACCEPT_AS_REFUNDED.equals(asked.action()));
    RefundResolveRequest request =
        new RefundResolveRequest(
            story.refundId(),
            asked.key(),
            asked.action(),
            s.operator(),
            s.reason(),
            s.evidence(),
            invalid,
            s.token());
    try {
      RefundResolveResult result = activities.resolve(request);
      story.logOperator(asked.action(), result.operator(), result.applied(), result.message());
      if (result.refundState() != null) {
        story.ledger(result.refundState(), 0);
      }
      if (result.applied()) {
        watch.askNow();
      }
    } catch (ActivityFailure e) {
      story.logOperator(asked.action(), s.operator(), false, ActivityFailures.reasonOf(e));
    }
  }
}

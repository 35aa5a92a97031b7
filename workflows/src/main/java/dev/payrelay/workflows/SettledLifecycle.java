package dev.payrelay.workflows;

import io.temporal.workflow.CancellationScope;
import io.temporal.workflow.Promise;
import io.temporal.workflow.TimerOptions;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * The lifecycle rules of {@code Workflow.getVersion("settled-lifecycle")} = 1, read once at the
 * start of a run; a history recorded before them keeps {@link Workflow#DEFAULT_VERSION} and replays
 * the old behaviour. Under version 1:
 *
 * <ul>
 *   <li>the deadline watch ends only on a settled ledger (a query's answer CONFIRMED, or the ledger
 *       no longer PENDING): a "paid" answer the ledger records as an exception (a wrong amount,
 *       currency or account) keeps the deadline, and at it the payment is closed and expired once
 *       the money the channel reported is decided ({@link DeadlineWatch});
 *   <li>a timer a wait no longer needs (the deadline moved, a requery came) is cancelled instead of
 *       left pending on the server ({@link #await});
 *   <li>an {@code extendDeadline} that arrives while the close at the deadline is under way is
 *       refused with why, and a close waits for an extension already being recorded, so an applied
 *       extension is never ignored ({@link OperatorDesk});
 *   <li>continue-as-new does not wait for queued operator signals or events: they are carried in
 *       the next run's input, in order, with their action keys ({@link PaymentWorkflowInput});
 *   <li>the grant is tried in bounded rounds with capped pauses between them, during which the run
 *       may continue as new ({@link PaymentWorkflowImpl}).
 * </ul>
 */
final class SettledLifecycle {

  /** The {@code Workflow.getVersion} change id. */
  static final String CHANGE_ID = "settled-lifecycle";

  /** The version whose runs follow these rules. */
  static final int VERSION = 1;

  private SettledLifecycle() {}

  /** Whether this run follows these rules (records the marker in a new run). */
  static boolean applies() {
    return Workflow.getVersion(CHANGE_ID, Workflow.DEFAULT_VERSION, VERSION) >= VERSION;
  }

  /**
   * Waits until {@code condition} holds or {@code timeout} passes, as {@link
   * Workflow#await(Duration, Supplier)} does; with {@code cancelTimer}, a timer the condition made
   * unnecessary is cancelled (one {@code TimerCanceled} event) instead of staying pending until it
   * fires. A zero or negative timeout checks the condition once, without a timer.
   *
   * @param summary what the timer waits for, shown on the timer in the Temporal UI
   * @return true when the condition held before the timeout
   */
  static boolean await(
      Duration timeout, Supplier<Boolean> condition, boolean cancelTimer, String summary) {
    if (!cancelTimer) {
      return Workflow.await(timeout, condition);
    }
    if (timeout.isNegative() || timeout.isZero()) {
      return condition.get();
    }
    @SuppressWarnings("unchecked")
    Promise<Void>[] timer = new Promise[1];
    CancellationScope scope =
        Workflow.newCancellationScope(
            () -> {
              timer[0] =
                  Workflow.newTimer(timeout, TimerOptions.newBuilder().setSummary(summary).build());
            });
    scope.run();
    Workflow.await(() -> timer[0].isCompleted() || condition.get());
    if (timer[0].isCompleted()) {
      return condition.get();
    }
    scope.cancel();
    // The cancelled timer's promise fails with CanceledFailure; reading it here keeps the SDK from
    // logging that failure as "never accessed". No command: the history is unchanged.
    timer[0].handle((fired, cancelled) -> null);
    return true;
  }
}

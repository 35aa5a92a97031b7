package dev.payrelay.workflows;

import dev.payrelay.workflows.activities.ReconciliationActivities;
import dev.payrelay.workflows.activities.ReconciliationFailure;
import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;

/**
 * Reconciles one channel's statement day: pages, our side, repairs, summary. See {@link
 * ReconciliationWorkflow}.
 *
 * <p>Version {@value #BATCHED_REPAIRS} (every run started since): {@link BatchedReconciliation},
 * repairs in batches and continues as new, so any day completes with each run's history near 2,400
 * events ({@link ReconciliationLimits#DEFAULTS}). Runs started before it replay and finish as
 * {@link ItemByItemReconciliation}.
 */
public class ReconciliationWorkflowImpl implements ReconciliationWorkflow {

  /** The change id of batched repairs and continue-as-new ({@code Workflow.getVersion}). */
  static final String BATCHED_REPAIRS = "batched-repairs";

  /** A channel looping its page tokens must not be read forever. */
  static final int MAX_PAGES = 2_000;

  /**
   * A run continues as new before its next step once its history has this many events, whatever its
   * step count: a backstop, since only steps should grow it (400 steps are about 2,400 events),
   * that keeps every run far below Temporal's 10,240-event warning.
   */
  static final int HISTORY_EVENTS_PER_RUN = 3_000;

  /**
   * How often one item's repair may fail retryably (channel unavailable) within a run; then it
   * stays FAILED and the day's next run tries it again, as the item-by-item repair's five attempts
   * did.
   */
  static final int ITEM_ATTEMPTS = 5;

  /** One page: one HTTP call (its own 5 s timeout) and up to a page of short lookups. */
  private static final ActivityOptions PAGE_OPTIONS =
      ActivityOptions.newBuilder()
          .setStartToCloseTimeout(Duration.ofMinutes(2))
          // The activity heartbeats between chunks of lines; silence this long means it is lost.
          .setHeartbeatTimeout(Duration.ofSeconds(30))
          .setRetryOptions(
              RetryOptions.newBuilder()
                  .setInitialInterval(Duration.ofSeconds(5))
                  .setBackoffCoefficient(2)
                  .setMaximumInterval(Duration.ofMinutes(2))
                  // About 20 minutes of a channel or database outage, then the run is FAILED and
                  // the day can be started again.
                  .setMaximumAttempts(12)
                  .setDoNotRetry(permanent())
                  .build())
          .build();

  /** Our side reads every page again (ids only) and then one query over the day's payments. */
  private static final ActivityOptions OUR_SIDE_OPTIONS =
      ActivityOptions.newBuilder(PAGE_OPTIONS)
          .setStartToCloseTimeout(Duration.ofMinutes(30))
          .build();

  /** Run bookkeeping is one short write; a database outage delays it but never drops it. */
  private static final ActivityOptions RUN_OPTIONS =
      DatabaseActivityOptions.untilTheDatabaseAnswers(Duration.ofSeconds(30), permanent());

  /**
   * A batch repairs up to {@link ReconciliationLimits#repairBatch()} items (100 by default), each
   * one transaction and at most one channel query with its own 5 s timeout.
   */
  private static final ActivityOptions REPAIR_BATCH_OPTIONS =
      ActivityOptions.newBuilder()
          // 100 items whose channel queries all time out take under 10 minutes.
          .setStartToCloseTimeout(Duration.ofMinutes(15))
          // It heartbeats after each item; one item takes seconds at most.
          .setHeartbeatTimeout(Duration.ofSeconds(30))
          .setRetryOptions(
              RetryOptions.newBuilder()
                  .setInitialInterval(Duration.ofSeconds(2))
                  .setBackoffCoefficient(2)
                  // A retry waits for the channel (or the database) at most this long.
                  .setMaximumInterval(Duration.ofSeconds(30))
                  // Unbounded (0): each item's attempts are bounded inside (ITEM_ATTEMPTS) and an
                  // attempt resumes after the last item it finished, so only a database outage
                  // repeats a batch without progress, and that passes.
                  .setMaximumAttempts(0)
                  .setDoNotRetry(permanent())
                  .build())
          .build();

  /** A repair is one channel query and one transaction, or one grant (item-by-item runs). */
  private static final ActivityOptions REPAIR_OPTIONS =
      ActivityOptions.newBuilder()
          .setStartToCloseTimeout(Duration.ofSeconds(30))
          .setRetryOptions(
              RetryOptions.newBuilder()
                  .setInitialInterval(Duration.ofSeconds(2))
                  .setBackoffCoefficient(2)
                  // Bounded: the item stays FAILED and the day's next run tries it again.
                  .setMaximumAttempts(5)
                  .setDoNotRetry(permanent())
                  .build())
          .build();

  private final ReconciliationActivities pages =
      Workflow.newActivityStub(ReconciliationActivities.class, PAGE_OPTIONS);
  private final ReconciliationActivities ourSide =
      Workflow.newActivityStub(ReconciliationActivities.class, OUR_SIDE_OPTIONS);
  private final ReconciliationActivities runs =
      Workflow.newActivityStub(ReconciliationActivities.class, RUN_OPTIONS);
  private final ReconciliationActivities repairs =
      Workflow.newActivityStub(ReconciliationActivities.class, REPAIR_OPTIONS);
  private final ReconciliationActivities batches =
      Workflow.newActivityStub(ReconciliationActivities.class, REPAIR_BATCH_OPTIONS);

  @Override
  public ReconciliationSummary run(ReconciliationInput input) {
    requireDate(input.date());
    if (Workflow.getVersion(BATCHED_REPAIRS, Workflow.DEFAULT_VERSION, 1)
        == Workflow.DEFAULT_VERSION) {
      return new ItemByItemReconciliation(pages, ourSide, runs, repairs).run(input);
    }
    return new BatchedReconciliation(pages, ourSide, runs, batches).run(input);
  }

  private static void requireDate(String date) {
    try {
      LocalDate.parse(date == null ? "" : date);
    } catch (DateTimeParseException e) {
      throw ApplicationFailure.newNonRetryableFailureWithCause(
          "not an ISO-8601 date: " + date, ReconciliationFailure.INVALID_REQUEST.name(), e);
    }
  }

  /** An activity's failure for people and the run row: its type and message, or its cause. */
  static String describe(ActivityFailure e) {
    return e.getCause() instanceof ApplicationFailure af
        ? af.getType() + ": " + af.getOriginalMessage()
        : String.valueOf(e.getCause());
  }

  private static String[] permanent() {
    return new String[] {
      ReconciliationFailure.CHANNEL_REFUSED.name(),
      ReconciliationFailure.UNKNOWN_CHANNEL.name(),
      ReconciliationFailure.INVALID_REQUEST.name(),
      ReconciliationFailure.ITEM_NOT_FOUND.name()
    };
  }
}

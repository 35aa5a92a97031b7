package dev.payrelay.workflows;

import dev.payrelay.workflows.activities.FinishRunRequest;
import dev.payrelay.workflows.activities.PageResult;
import dev.payrelay.workflows.activities.ReconcilePageRequest;
import dev.payrelay.workflows.activities.ReconciliationActivities;
import dev.payrelay.workflows.activities.ReconciliationDay;
import dev.payrelay.workflows.activities.ReconciliationFailure;
import dev.payrelay.workflows.activities.RepairRequest;
import dev.payrelay.workflows.activities.RepairResult;
import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashSet;
import java.util.Set;
import org.slf4j.Logger;

/**
 * Reconciles one channel's statement day: pages, our side, repairs, summary. See {@link
 * ReconciliationWorkflow}.
 *
 * <p>History: about six events per page and per repair, so a day of {@value #MAX_PAGES} pages and a
 * few thousand gaps stays well under Temporal's 50,000-event limit without continue-as-new.
 */
public class ReconciliationWorkflowImpl implements ReconciliationWorkflow {

  /** A channel looping its page tokens must not grow the history forever. */
  static final int MAX_PAGES = 2_000;

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
      ActivityOptions.newBuilder()
          .setStartToCloseTimeout(Duration.ofSeconds(30))
          .setRetryOptions(
              RetryOptions.newBuilder()
                  .setInitialInterval(Duration.ofSeconds(1))
                  .setBackoffCoefficient(2)
                  // A recovering database is probed at least once a minute.
                  .setMaximumInterval(Duration.ofMinutes(1))
                  // Unbounded (0): only an outage fails it, and that passes.
                  .setMaximumAttempts(0)
                  .setDoNotRetry(permanent())
                  .build())
          .build();

  /** A repair is one channel query and one transaction, or one grant. */
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

  private static final Logger log = Workflow.getLogger(ReconciliationWorkflowImpl.class);

  private final ReconciliationActivities pages =
      Workflow.newActivityStub(ReconciliationActivities.class, PAGE_OPTIONS);
  private final ReconciliationActivities ourSide =
      Workflow.newActivityStub(ReconciliationActivities.class, OUR_SIDE_OPTIONS);
  private final ReconciliationActivities runs =
      Workflow.newActivityStub(ReconciliationActivities.class, RUN_OPTIONS);
  private final ReconciliationActivities repairs =
      Workflow.newActivityStub(ReconciliationActivities.class, REPAIR_OPTIONS);

  private int pagesRead;
  private long linesRead;

  @Override
  public ReconciliationSummary run(ReconciliationInput input) {
    requireDate(input.date());
    ReconciliationDay day = new ReconciliationDay(input.channel(), input.date());
    runs.startRun(day);
    Set<Long> toRepair = new LinkedHashSet<>();
    try {
      readStatement(input, toRepair);
      toRepair.addAll(ourSide.ourSide(day).openItemIds());
    } catch (ActivityFailure e) {
      String why = describe(e);
      log.warn("recon {} {}: statement unreadable: {}", input.channel(), input.date(), why);
      runs.finishRun(finish(input, "FAILED", why));
      throw ApplicationFailure.newNonRetryableFailureWithCause(
          "statement of " + input.channel() + " " + input.date() + " unreadable: " + why,
          ReconciliationFailure.STATEMENT_UNREADABLE.name(),
          e);
    }
    int failed = repairAll(toRepair);
    String error = failed == 0 ? null : failed + " of " + toRepair.size() + " repairs failed";
    return runs.finishRun(finish(input, "COMPLETED", error));
  }

  private void readStatement(ReconciliationInput input, Set<Long> toRepair) {
    String token = null;
    do {
      if (pagesRead == MAX_PAGES) {
        throw ApplicationFailure.newNonRetryableFailure(
            "statement has more than " + MAX_PAGES + " pages",
            ReconciliationFailure.STATEMENT_UNREADABLE.name());
      }
      PageResult page =
          pages.reconcilePage(new ReconcilePageRequest(input.channel(), input.date(), token));
      pagesRead++;
      linesRead += page.linesRead();
      toRepair.addAll(page.openItemIds());
      token = page.nextPageToken();
    } while (token != null);
    log.info(
        "recon {} {}: {} pages, {} lines", input.channel(), input.date(), pagesRead, linesRead);
  }

  /** Repairs each item once; returns how many stayed FAILED. */
  private int repairAll(Set<Long> itemIds) {
    int failed = 0;
    for (long itemId : itemIds) {
      try {
        RepairResult r = repairs.repair(new RepairRequest(itemId));
        if (!"DONE".equals(r.status())) {
          failed++;
          log.warn("recon item {}: {} failed: {}", itemId, r.repair(), r.details());
        }
      } catch (ActivityFailure e) {
        failed++;
        log.warn("recon item {}: repair failed: {}", itemId, describe(e));
      }
    }
    return failed;
  }

  private FinishRunRequest finish(ReconciliationInput input, String status, String error) {
    return new FinishRunRequest(input.channel(), input.date(), status, pagesRead, linesRead, error);
  }

  private static void requireDate(String date) {
    try {
      LocalDate.parse(date == null ? "" : date);
    } catch (DateTimeParseException e) {
      throw ApplicationFailure.newNonRetryableFailureWithCause(
          "not an ISO-8601 date: " + date, ReconciliationFailure.INVALID_REQUEST.name(), e);
    }
  }

  private static String describe(ActivityFailure e) {
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

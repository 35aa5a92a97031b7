package dev.payrelay.workflows;

import dev.payrelay.workflows.activities.FinishRunRequest;
import dev.payrelay.workflows.activities.PageResult;
import dev.payrelay.workflows.activities.ReconcilePageRequest;
import dev.payrelay.workflows.activities.ReconciliationActivities;
import dev.payrelay.workflows.activities.ReconciliationDay;
import dev.payrelay.workflows.activities.ReconciliationFailure;
import dev.payrelay.workflows.activities.RepairRequest;
import dev.payrelay.workflows.activities.RepairResult;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Workflow;
import java.util.LinkedHashSet;
import java.util.Set;
import org.slf4j.Logger;

/**
 * The reconciliation of runs started before version {@code batched-repairs}: one run reads every
 * page, then our side, then repairs each open item with its own activity (about six history events
 * per item, so a bad day of 9,000 gaps passes Temporal's 51,200-event limit). Kept, unchanged, only
 * so those runs replay and finish; new runs are {@link BatchedReconciliation}.
 */
final class ItemByItemReconciliation {

  private static final Logger log = Workflow.getLogger(ReconciliationWorkflowImpl.class);

  private final ReconciliationActivities pages;
  private final ReconciliationActivities ourSide;
  private final ReconciliationActivities runs;
  private final ReconciliationActivities repairs;

  private int pagesRead;
  private long linesRead;

  ItemByItemReconciliation(
      ReconciliationActivities pages,
      ReconciliationActivities ourSide,
      ReconciliationActivities runs,
      ReconciliationActivities repairs) {
    this.pages = pages;
    this.ourSide = ourSide;
    this.runs = runs;
    this.repairs = repairs;
  }

  ReconciliationSummary run(ReconciliationInput input) {
    ReconciliationDay day = new ReconciliationDay(input.channel(), input.date());
    runs.startRun(day);
    Set<Long> toRepair = new LinkedHashSet<>();
    try {
      readStatement(input, toRepair);
      toRepair.addAll(ourSide.ourSide(day).openItemIds());
    } catch (ActivityFailure e) {
      String why = ReconciliationWorkflowImpl.describe(e);
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
      if (pagesRead == ReconciliationWorkflowImpl.MAX_PAGES) {
        throw ApplicationFailure.newNonRetryableFailure(
            "statement has more than " + ReconciliationWorkflowImpl.MAX_PAGES + " pages",
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
        log.warn(
            "recon item {}: repair failed: {}", itemId, ReconciliationWorkflowImpl.describe(e));
      }
    }
    return failed;
  }

  private FinishRunRequest finish(ReconciliationInput input, String status, String error) {
    return new FinishRunRequest(input.channel(), input.date(), status, pagesRead, linesRead, error);
  }
}

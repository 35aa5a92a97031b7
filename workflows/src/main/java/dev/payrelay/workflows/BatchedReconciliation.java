package dev.payrelay.workflows;

import dev.payrelay.workflows.ReconciliationProgress.Phase;
import dev.payrelay.workflows.activities.FinishRunRequest;
import dev.payrelay.workflows.activities.ReconcilePageRequest;
import dev.payrelay.workflows.activities.ReconciliationActivities;
import dev.payrelay.workflows.activities.ReconciliationDay;
import dev.payrelay.workflows.activities.ReconciliationFailure;
import dev.payrelay.workflows.activities.RepairBatchRequest;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.WorkflowInfo;
import org.slf4j.Logger;

/**
 * The reconciliation of version {@code batched-repairs}: statement pages, our side, then the day's
 * open items repaired in batches walked by an item-id cursor, all in counts (no item id enters the
 * history). Before each step the run checks its size and, past {@link
 * ReconciliationLimits#stepsPerRun()} steps, {@link
 * ReconciliationWorkflowImpl#HISTORY_EVENTS_PER_RUN} events or Temporal's suggestion, continues as
 * new with its {@link ReconciliationProgress}; the day's first run starts the run row, the last
 * records its end. The workflow has no signals or updates, so no message can be pending when it
 * continues.
 */
final class BatchedReconciliation {

  private static final Logger log = Workflow.getLogger(ReconciliationWorkflowImpl.class);

  private final ReconciliationActivities pages;
  private final ReconciliationActivities ourSide;
  private final ReconciliationActivities runs;
  private final ReconciliationActivities batches;

  BatchedReconciliation(
      ReconciliationActivities pages,
      ReconciliationActivities ourSide,
      ReconciliationActivities runs,
      ReconciliationActivities batches) {
    this.pages = pages;
    this.ourSide = ourSide;
    this.runs = runs;
    this.batches = batches;
  }

  ReconciliationSummary run(ReconciliationInput input) {
    ReconciliationLimits limits =
        input.limits() == null ? ReconciliationLimits.DEFAULTS : input.limits();
    ReconciliationDay day = new ReconciliationDay(input.channel(), input.date());
    ReconciliationProgress p = input.progress();
    if (p == null) {
      runs.startRun(day);
      p = ReconciliationProgress.start();
    }
    try {
      for (int steps = 0; p.phase() != Phase.FINISHED; steps++) {
        if (dueToContinue(steps, limits)) {
          continueAsNew(input, limits, p);
        }
        p = step(input, day, p, limits);
      }
    } catch (ActivityFailure e) {
      throw stopped(input, p, e);
    }
    int repaired = p.repairsDone() + p.repairsFailed();
    String error =
        p.repairsFailed() == 0 ? null : p.repairsFailed() + " of " + repaired + " repairs failed";
    log.info(
        "recon {} {}: {} pages, {} lines, {} repairs ({} failed) over {} runs",
        input.channel(),
        input.date(),
        p.pagesRead(),
        p.linesRead(),
        repaired,
        p.repairsFailed(),
        p.run());
    return runs.finishRun(finish(input, p, "COMPLETED", error));
  }

  private ReconciliationProgress step(
      ReconciliationInput input,
      ReconciliationDay day,
      ReconciliationProgress p,
      ReconciliationLimits limits) {
    return switch (p.phase()) {
      case STATEMENT -> {
        if (p.pagesRead() == ReconciliationWorkflowImpl.MAX_PAGES) {
          throw tooManyPages(input, p);
        }
        yield p.afterPage(
            pages.comparePage(new ReconcilePageRequest(day.channel(), day.date(), p.pageToken())));
      }
      case OUR_SIDE -> {
        ourSide.compareOurSide(day);
        yield p.afterOurSide();
      }
      case REPAIRS ->
          p.afterBatch(
              batches.repairBatch(
                  new RepairBatchRequest(
                      day.channel(),
                      day.date(),
                      p.repairCursor(),
                      limits.repairBatch(),
                      ReconciliationWorkflowImpl.ITEM_ATTEMPTS)));
      case FINISHED -> p;
    };
  }

  /** Every run takes at least one step, so a continued run always makes progress. */
  private static boolean dueToContinue(int steps, ReconciliationLimits limits) {
    WorkflowInfo info = Workflow.getInfo();
    return steps > 0
        && (steps >= limits.stepsPerRun()
            || info.getHistoryLength() >= ReconciliationWorkflowImpl.HISTORY_EVENTS_PER_RUN
            || info.isContinueAsNewSuggested());
  }

  private static void continueAsNew(
      ReconciliationInput input, ReconciliationLimits limits, ReconciliationProgress p) {
    log.info(
        "recon {} {}: run {} continues as new in {} after {} history events",
        input.channel(),
        input.date(),
        p.run(),
        p.phase(),
        Workflow.getInfo().getHistoryLength());
    Workflow.continueAsNew(
        new ReconciliationInput(input.channel(), input.date(), limits, p.nextRun()));
  }

  private ApplicationFailure tooManyPages(ReconciliationInput input, ReconciliationProgress p) {
    String why = "statement has more than " + ReconciliationWorkflowImpl.MAX_PAGES + " pages";
    runs.finishRun(finish(input, p, "FAILED", why));
    return ApplicationFailure.newNonRetryableFailure(
        why, ReconciliationFailure.STATEMENT_UNREADABLE.name());
  }

  /** Records the run FAILED; the failure the workflow ends with. */
  private ApplicationFailure stopped(
      ReconciliationInput input, ReconciliationProgress p, ActivityFailure e) {
    String why = ReconciliationWorkflowImpl.describe(e);
    boolean repairing = p.phase() == Phase.REPAIRS;
    String what =
        repairing
            ? "repairs of "
                + input.channel()
                + " "
                + input.date()
                + " stopped after item "
                + p.repairCursor()
            : "statement of " + input.channel() + " " + input.date() + " unreadable";
    log.warn("recon: {}: {}", what, why);
    runs.finishRun(finish(input, p, "FAILED", why));
    return ApplicationFailure.newNonRetryableFailureWithCause(
        what + ": " + why,
        (repairing
                ? ReconciliationFailure.REPAIRS_STOPPED
                : ReconciliationFailure.STATEMENT_UNREADABLE)
            .name(),
        e);
  }

  private static FinishRunRequest finish(
      ReconciliationInput input, ReconciliationProgress p, String status, String error) {
    return new FinishRunRequest(
        input.channel(), input.date(), status, p.pagesRead(), p.linesRead(), error);
  }
}

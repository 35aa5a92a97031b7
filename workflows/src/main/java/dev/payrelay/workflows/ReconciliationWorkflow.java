package dev.payrelay.workflows;

import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * One channel's statement day compared with our tables, id {@code recon-{channel}-{date}} ({@link
 * WorkflowIds#reconciliation}), on task queue {@link TaskQueues#RECONCILIATION}.
 *
 * <p>Reads the statement page by page (one activity per page; lines never enter the history), then
 * our side, then repairs the day's gaps not yet DONE in batches (one activity walks up to {@link
 * ReconciliationLimits#repairBatch()} items by id), then records the run. A bad day is cut into
 * runs: after {@link ReconciliationLimits#stepsPerRun()} activities, or a long history, the run
 * continues as new under the same id carrying its {@link ReconciliationProgress}, so no run's
 * history grows past a few thousand events however many gaps the day has (DESIGN invariant 11).
 * Start it with that id so a day has one run at a time; starting the id again after a run finished
 * re-runs the day, which adds no items and repeats no repair that is DONE (DESIGN invariant 9).
 */
@WorkflowInterface
public interface ReconciliationWorkflow {

  /**
   * Reconciles the day (or, with {@link ReconciliationInput#progress()}, goes on where the day's
   * previous run continued as new).
   *
   * @return the day's summary after its last run
   * @throws io.temporal.failure.ApplicationFailure {@code INVALID_REQUEST} for a date that is not
   *     ISO-8601; {@code STATEMENT_UNREADABLE} when the statement could not be read to its end,
   *     {@code REPAIRS_STOPPED} when the open items could not be walked to their end (the run is
   *     then recorded FAILED)
   */
  @WorkflowMethod
  ReconciliationSummary run(ReconciliationInput input);
}

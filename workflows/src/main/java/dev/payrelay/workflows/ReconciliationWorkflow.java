package dev.payrelay.workflows;

import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * One channel's statement day compared with our tables, id {@code recon-{channel}-{date}} ({@link
 * WorkflowIds#reconciliation}), on task queue {@link TaskQueues#RECONCILIATION}.
 *
 * <p>Reads the statement page by page (one activity per page; lines never enter the history), then
 * our side, then repairs each gap not yet DONE, then records the run. Start it with that id so a
 * day has one run at a time; starting the id again after a run finished re-runs the day, which adds
 * no items and repeats no repair that is DONE (DESIGN invariant 9).
 */
@WorkflowInterface
public interface ReconciliationWorkflow {

  /**
   * Reconciles the day.
   *
   * @return the day's summary after this run
   * @throws io.temporal.failure.ApplicationFailure {@code INVALID_REQUEST} for a date that is not
   *     ISO-8601; {@code STATEMENT_UNREADABLE} when the statement could not be read to its end (the
   *     run is then recorded FAILED)
   */
  @WorkflowMethod
  ReconciliationSummary run(ReconciliationInput input);
}

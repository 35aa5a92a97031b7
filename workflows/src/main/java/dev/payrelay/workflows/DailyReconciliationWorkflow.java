package dev.payrelay.workflows;

import dev.payrelay.workflows.activities.DailyStartResult;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * One action of a channel's daily reconciliation Schedule ({@code recon-daily-{channel}}, {@link
 * WorkflowIds#dailyReconciliation}), on task queue {@link TaskQueues#RECONCILIATION}: starts the
 * reconciliation of the last statement day that has ended, then ends. It never waits for that run;
 * {@code recon-{channel}-{date}} ({@link ReconciliationWorkflow}) tells the day's story.
 *
 * <p>The day is the UTC date before the action's scheduled time (the {@code
 * TemporalScheduledStartTime} search attribute the Schedule sets; a manual trigger's is the trigger
 * time), or before the run's start when started outside a Schedule. So a backfill of past hours
 * reconciles the days before them.
 */
@WorkflowInterface
public interface DailyReconciliationWorkflow {

  /**
   * Starts the day's reconciliation with the daily rules (start unless running; re-run a failed
   * day; re-run once a day that completed on demand before it ended).
   *
   * @return what the start did
   * @throws io.temporal.failure.ApplicationFailure {@code INVALID_REQUEST} for a blank channel
   */
  @WorkflowMethod
  DailyStartResult run(DailyReconciliationInput input);
}

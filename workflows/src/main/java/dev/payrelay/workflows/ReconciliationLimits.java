package dev.payrelay.workflows;

/**
 * How a day's reconciliation is cut into activities and runs. A run continues as new (same workflow
 * id, a fresh history) before its next step once it ran {@code stepsPerRun} steps (a statement
 * page, our side or a repair batch: about six history events each) or its history reached 3,000
 * events (a backstop: {@code ReconciliationWorkflowImpl.HISTORY_EVENTS_PER_RUN}), or when Temporal
 * suggests it (by default past 4,096 events); so a run's history stays near {@code 6 × stepsPerRun}
 * events, and never far past 3,000 whatever the limits, however bad the day.
 *
 * <p>The limits are part of the workflow's input, carried unchanged to every continued run: a
 * running day never changes how it is cut mid-way. Changing {@link #DEFAULTS} changes the decisions
 * of runs in flight and so needs {@code Workflow.getVersion}.
 *
 * @param repairBatch items one {@code repairBatch} activity repairs at most (positive)
 * @param stepsPerRun steps one run takes at most before it continues as new (positive)
 */
public record ReconciliationLimits(int repairBatch, int stepsPerRun) {

  /**
   * 100 items a batch: each is one transaction and at most one channel query (its own 5 s timeout),
   * so a batch takes seconds and a retry repeats little. 400 steps a run: about 2,400 events, far
   * below Temporal's 10,240-event warning and its 4,096-event continue-as-new suggestion.
   */
  public static final ReconciliationLimits DEFAULTS = new ReconciliationLimits(100, 400);

  /** Checks both are positive. */
  public ReconciliationLimits {
    if (repairBatch <= 0 || stepsPerRun <= 0) {
      throw new IllegalArgumentException(
          "limits must be positive: repairBatch " + repairBatch + ", stepsPerRun " + stepsPerRun);
    }
  }
}

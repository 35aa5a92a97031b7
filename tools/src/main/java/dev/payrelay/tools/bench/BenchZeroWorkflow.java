package dev.payrelay.tools.bench;

import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * The {@code zero-activity} baseline's workflow: started and completed in its first workflow task,
 * with no activity, timer or signal; the fewest events a workflow can have, so the server's
 * ceiling.
 */
@WorkflowInterface
public interface BenchZeroWorkflow {

  /** Ends at once; returns {@code request}'s index as text. */
  @WorkflowMethod
  String run(BenchWorkflow.Request request);
}

package dev.payrelay.tools.bench;

import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/** The workflow baseline's trivial workflow: runs one {@link BenchActivities#echo} and ends. */
@WorkflowInterface
public interface BenchWorkflow {

  /**
   * One request of the baseline.
   *
   * @param index the operation's index in the run
   */
  record Request(int index) {}

  /** Runs the activity once; returns what it returned. */
  @WorkflowMethod
  String run(Request request);
}

package dev.payrelay.tools.bench;

/** {@link BenchZeroWorkflow}: no command but the completion. */
public final class BenchZeroWorkflowImpl implements BenchZeroWorkflow {

  @Override
  public String run(BenchWorkflow.Request request) {
    return Integer.toString(request.index());
  }
}

package dev.payrelay.tools.bench;

import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.workflow.Workflow;
import java.time.Duration;

/** {@link BenchWorkflow}: one activity, as short as a workflow with an activity can be. */
public final class BenchWorkflowImpl implements BenchWorkflow {

  /** The activity does nothing: 10 s is only a guard against a lost worker. */
  private static final ActivityOptions ECHO =
      ActivityOptions.newBuilder()
          .setStartToCloseTimeout(Duration.ofSeconds(10))
          .setRetryOptions(RetryOptions.newBuilder().setMaximumAttempts(3).build())
          .build();

  private final BenchActivities activities = Workflow.newActivityStub(BenchActivities.class, ECHO);

  @Override
  public String run(Request request) {
    return activities.echo(request);
  }
}

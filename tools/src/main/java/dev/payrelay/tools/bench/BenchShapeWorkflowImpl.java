package dev.payrelay.tools.bench;

import io.temporal.activity.LocalActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.workflow.Workflow;
import java.time.Duration;

/** {@link BenchShapeWorkflow}: local activities that do nothing, one timer, two signals. */
public final class BenchShapeWorkflowImpl implements BenchShapeWorkflow {

  /** The local activity does nothing: 10 s is only a guard against a lost worker. */
  private static final LocalActivityOptions NOTHING =
      LocalActivityOptions.newBuilder()
          .setStartToCloseTimeout(Duration.ofSeconds(10))
          .setRetryOptions(RetryOptions.newBuilder().setMaximumAttempts(3).build())
          .build();

  private final BenchActivities activities =
      Workflow.newLocalActivityStub(BenchActivities.class, NOTHING);

  private int signals;

  @Override
  public void run(BenchWorkflow.Request request) {
    Workflow.await(() -> signals >= 1);
    localActivities(request);
    // Started and never awaited: the payment's watch timer is still pending when it completes.
    Workflow.newTimer(Duration.ofSeconds(TIMER_SECONDS));
    Workflow.await(() -> signals >= SIGNALS);
    localActivities(request);
  }

  private void localActivities(BenchWorkflow.Request request) {
    for (int i = 0; i < LOCAL_ACTIVITIES_PER_TASK; i++) {
      activities.echo(request);
    }
  }

  @Override
  public void onEvent(Event event) {
    signals++;
  }
}

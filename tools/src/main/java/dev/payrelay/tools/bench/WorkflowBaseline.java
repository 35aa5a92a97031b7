package dev.payrelay.tools.bench;

import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.temporal.TemporalConnection;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.worker.WorkerFactory;
import java.util.UUID;

/**
 * Baseline (d): the same Temporal server's rate of a trivial one-activity workflow ({@link
 * BenchWorkflow}), each started and awaited to completion by a caller, with a worker in this
 * process on a task queue of the run's own in the namespace {@value #NAMESPACE} (registered when
 * missing; its workflows age out with the namespace's retention).
 */
final class WorkflowBaseline implements BaselineBench {

  static final String NAMESPACE = "payrelay-bench";

  private final PayrelayConfig.TemporalSettings temporal;

  WorkflowBaseline(PayrelayConfig.TemporalSettings temporal) {
    this.temporal = temporal;
  }

  @Override
  public String name() {
    return "workflow";
  }

  @Override
  public BenchResult.Baseline run(LoadShape shape, int count, int warmup) throws Exception {
    String run = UUID.randomUUID().toString().substring(0, 8);
    String taskQueue = "payrelay-bench-" + run;
    try (TemporalConnection connection = TemporalConnection.open(inBenchNamespace())) {
      WorkflowClient client = connection.client();
      WorkerFactory factory = WorkerFactory.newInstance(client);
      try {
        var worker = factory.newWorker(taskQueue);
        worker.registerWorkflowImplementationTypes(BenchWorkflowImpl.class);
        worker.registerActivitiesImplementations(
            (BenchActivities) request -> Integer.toString(request.index()));
        factory.start();
        Load.Operation workflow =
            (i, at) ->
                client
                    .newWorkflowStub(
                        BenchWorkflow.class,
                        WorkflowOptions.newBuilder()
                            .setTaskQueue(taskQueue)
                            .setWorkflowId("bench-" + run + "-" + i)
                            .build())
                    .run(new BenchWorkflow.Request(i));
        Load.Result r = BaselineBench.warmedUp(shape, count, warmup, workflow);
        return BenchResult.Baseline.of(name(), "start + complete a one-activity workflow", r);
      } finally {
        factory.shutdownNow();
      }
    }
  }

  private PayrelayConfig.TemporalSettings inBenchNamespace() {
    PayrelayConfig.TemporalSettings t = temporal;
    return new PayrelayConfig.TemporalSettings(
        t.address(),
        NAMESPACE,
        t.local(),
        t.channelQueries(),
        t.refundQueries(),
        t.dailyReconciliation(),
        t.expirySweep(),
        t.expirySweepGrace(),
        t.grantRepair(),
        t.grantRepairAfter(),
        t.security(),
        t.compression(),
        t.addressSource(),
        t.uiUrl());
  }
}

package dev.payrelay.tools.bench;

import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.temporal.TemporalConnection;
import io.temporal.client.BatchRequest;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactory;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The workflow baselines, on the same Temporal server as payrelay, each workflow started and
 * awaited to completion by a caller, with a worker in this process (so the bench JVM's CPU is the
 * worker's and its client's, as payrelay's worker process also starts and signals its workflows) on
 * a task queue of the run's own in the namespace {@value #NAMESPACE} (registered when missing; its
 * workflows age out with the namespace's retention):
 *
 * <ul>
 *   <li>{@code workflow}: one activity ({@link BenchWorkflow}), issue 13's baseline;
 *   <li>{@code zero-activity}: started and completed, nothing else ({@link BenchZeroWorkflow}), the
 *       server's ceiling;
 *   <li>{@code same-shape}: a payment's happy-path shape doing nothing ({@link
 *       BenchShapeWorkflow}): signal-with-start, local activities, the timer, the second signal
 *       sent once the first workflow task runs (as payrelay's PaymentConfirmed comes after
 *       PaymentCreated was handled), so the history keeps its two workflow tasks.
 * </ul>
 */
final class WorkflowBaseline implements BaselineBench {

  static final String NAMESPACE = "payrelay-bench";

  /** How long a same-shape caller waits for its workflow's first task, in seconds. */
  static final long FIRST_TASK_WAIT_SECONDS = 30;

  private final String name;
  private final PayrelayConfig.TemporalSettings temporal;

  /**
   * A workflow baseline.
   *
   * @param name {@code workflow}, {@code zero-activity} or {@code same-shape}
   * @throws IllegalArgumentException for another name
   */
  WorkflowBaseline(String name, PayrelayConfig.TemporalSettings temporal) {
    if (!List.of("workflow", "zero-activity", "same-shape").contains(name)) {
      throw new IllegalArgumentException("no workflow baseline " + name);
    }
    this.name = name;
    this.temporal = temporal;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public List<String> servers() {
    return List.of("temporal");
  }

  @Override
  public BenchResult.Baseline run(LoadShape shape, int count, int warmup, CpuMeter meter)
      throws Exception {
    String run = UUID.randomUUID().toString().substring(0, 8);
    String taskQueue = "payrelay-bench-" + run;
    try (TemporalConnection connection = TemporalConnection.open(inBenchNamespace())) {
      WorkflowClient client = connection.client();
      WorkerFactory factory = WorkerFactory.newInstance(client);
      try {
        FirstTasks firstTasks = new FirstTasks();
        Worker worker = factory.newWorker(taskQueue);
        worker.registerWorkflowImplementationTypes(
            BenchWorkflowImpl.class, BenchZeroWorkflowImpl.class, BenchShapeWorkflowImpl.class);
        worker.registerActivitiesImplementations(firstTasks);
        factory.start();
        Load.Operation op = operation(client, taskQueue, "bench-" + run + "-", firstTasks);
        Load.Result r = BaselineBench.warmedUp(shape, count, warmup, meter, op);
        return BenchResult.Baseline.of(name, what(), r);
      } finally {
        factory.shutdownNow();
      }
    }
  }

  private String what() {
    return switch (name) {
      case "workflow" -> "start + complete a one-activity workflow";
      case "zero-activity" -> "start + complete a workflow with no activity";
      default ->
          "signal-with-start, "
              + BenchShapeWorkflow.SIGNALS
              + " signals, "
              + 2 * BenchShapeWorkflow.LOCAL_ACTIVITIES_PER_TASK
              + " no-op local activities, 1 timer, 2 workflow tasks";
    };
  }

  private Load.Operation operation(
      WorkflowClient client, String taskQueue, String idPrefix, FirstTasks firstTasks) {
    return (i, at) -> {
      WorkflowOptions options =
          WorkflowOptions.newBuilder().setTaskQueue(taskQueue).setWorkflowId(idPrefix + i).build();
      BenchWorkflow.Request request = new BenchWorkflow.Request(i);
      switch (name) {
        case "workflow" -> client.newWorkflowStub(BenchWorkflow.class, options).run(request);
        case "zero-activity" ->
            client.newWorkflowStub(BenchZeroWorkflow.class, options).run(request);
        default ->
            sameShape(
                client.newWorkflowStub(BenchShapeWorkflow.class, options),
                client,
                request,
                firstTasks);
      }
    };
  }

  private static void sameShape(
      BenchShapeWorkflow stub,
      WorkflowClient client,
      BenchWorkflow.Request request,
      FirstTasks firstTasks)
      throws Exception {
    CompletableFuture<Void> firstTask = firstTasks.expect(request.index());
    BatchRequest start = client.newSignalWithStartRequest();
    start.add(stub::run, request);
    start.add(stub::onEvent, new BenchShapeWorkflow.Event(1));
    client.signalWithStart(start);
    firstTask.get(FIRST_TASK_WAIT_SECONDS, TimeUnit.SECONDS);
    for (int s = 2; s <= BenchShapeWorkflow.SIGNALS; s++) {
      stub.onEvent(new BenchShapeWorkflow.Event(s));
    }
    WorkflowStub.fromTyped(stub).getResult(Void.class);
  }

  /**
   * The activities of every workflow baseline: {@code echo} gives back the index, and tells a
   * same-shape caller waiting for it that its workflow's first task runs.
   */
  static final class FirstTasks implements BenchActivities {
    private final Map<Integer, CompletableFuture<Void>> waiting = new ConcurrentHashMap<>();

    CompletableFuture<Void> expect(int index) {
      return waiting.computeIfAbsent(index, k -> new CompletableFuture<>());
    }

    @Override
    public String echo(BenchWorkflow.Request request) {
      CompletableFuture<Void> f = waiting.remove(request.index());
      if (f != null) {
        f.complete(null);
      }
      return Integer.toString(request.index());
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

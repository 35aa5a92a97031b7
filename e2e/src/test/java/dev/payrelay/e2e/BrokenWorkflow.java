package dev.payrelay.e2e;

import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.worker.WorkerFactory;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.util.UUID;

/**
 * A workflow whose every workflow task fails (its code throws; by the SDK's default that fails the
 * task, not the workflow, and the server retries it), so the SDK's workflow task failure metrics
 * have something to count.
 */
@WorkflowInterface
public interface BrokenWorkflow {

  /** Fails its workflow task. */
  @WorkflowMethod
  void run();

  /** Throws from workflow code. */
  class Impl implements BrokenWorkflow {
    @Override
    public void run() {
      throw new IllegalStateException("broken on purpose");
    }
  }

  /**
   * One running broken workflow on its own task queue, polled by its own worker over {@code client}
   * (so the SDK reports to the client's metrics scope); {@link #close()} terminates it.
   *
   * @param taskQueue the queue, unique to this run
   */
  record Running(WorkerFactory factory, WorkflowStub workflow, String taskQueue)
      implements AutoCloseable {

    /** Starts the worker and the workflow. */
    static Running start(WorkflowClient client) {
      String queue = "ops-broken-" + UUID.randomUUID();
      WorkerFactory factory = WorkerFactory.newInstance(client);
      factory.newWorker(queue).registerWorkflowImplementationTypes(Impl.class);
      factory.start();
      BrokenWorkflow broken =
          client.newWorkflowStub(
              BrokenWorkflow.class,
              WorkflowOptions.newBuilder().setTaskQueue(queue).setWorkflowId(queue).build());
      WorkflowClient.start(broken::run);
      return new Running(factory, WorkflowStub.fromTyped(broken), queue);
    }

    @Override
    public void close() {
      workflow.terminate("test over");
      factory.shutdownNow();
    }
  }
}

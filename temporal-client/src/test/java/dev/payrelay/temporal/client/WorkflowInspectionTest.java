package dev.payrelay.temporal.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.workflows.PaymentView;
import dev.payrelay.workflows.PaymentWorkflowState;
import dev.payrelay.workflows.RefundView;
import dev.payrelay.workflows.RefundWorkflowState;
import dev.payrelay.workflows.WorkflowIds;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.client.WorkflowOptions;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import io.temporal.workflow.QueryMethod;
import io.temporal.workflow.SignalMethod;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.net.ServerSocket;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Reading a payment's workflow for its trail from the in-memory test server, with a workflow that
 * answers the {@code state} query and sets current details as the payment workflow does; and from a
 * closed port.
 */
class WorkflowInspectionTest {

  private static final String TASK_QUEUE = "inspection-test";
  private static final String DETAILS = "**NEEDS_ATTENTION**: amount 10.00 USD reported, 10.50 USD";

  /** A stand-in with the payment workflow's query and current details. */
  @WorkflowInterface
  public interface Waiting {
    @WorkflowMethod(name = "PaymentWorkflow")
    void run();

    @SignalMethod
    void finish();

    @QueryMethod
    PaymentView state();
  }

  /** Sets its details, then waits for {@code finish}. */
  public static final class WaitingImpl implements Waiting {
    private boolean done;

    @Override
    public void run() {
      Workflow.setCurrentDetails(DETAILS);
      Workflow.await(() -> done);
    }

    @Override
    public void finish() {
      done = true;
    }

    @Override
    public PaymentView state() {
      return new PaymentView(
          "pay_1",
          PaymentWorkflowState.NEEDS_ATTENTION,
          List.of(),
          List.of(),
          List.of(),
          "AMOUNT_MISMATCH: reported 10.00 USD, expected 10.50 USD",
          List.of(),
          List.of("amount mismatch — fix: resolve ACCEPT_AMOUNT"),
          "an operator",
          DETAILS);
    }
  }

  @Test
  void runningWorkflow_isDescribedWithItsLink_currentDetails_andStateQueryReason() {
    TestWorkflowEnvironment env = TestWorkflowEnvironment.newInstance();
    try {
      Worker worker = env.newWorker(TASK_QUEUE);
      worker.registerWorkflowImplementationTypes(WaitingImpl.class);
      env.start();
      Waiting wf =
          env.getWorkflowClient()
              .newWorkflowStub(
                  Waiting.class,
                  WorkflowOptions.newBuilder()
                      .setWorkflowId(WorkflowIds.payment("pay_1"))
                      .setTaskQueue(TASK_QUEUE)
                      .build());
      String runId = WorkflowClient.start(wf::run).getRunId();

      WorkflowSummary s =
          new WorkflowInspection(env.getWorkflowClient(), URI.create("http://127.0.0.1:8233/"))
              .payment("pay_1");

      assertThat(s.reachable()).isTrue();
      assertThat(s.error()).isNull();
      assertThat(s.runId()).isEqualTo(runId);
      assertThat(s.status()).isEqualTo("Running");
      assertThat(s.uiUrl())
          .isEqualTo(
              "http://127.0.0.1:8233/namespaces/"
                  + env.getNamespace()
                  + "/workflows/payment-pay_1/"
                  + runId);
      assertThat(s.currentDetails()).isEqualTo(DETAILS);
      assertThat(s.state()).isEqualTo("NEEDS_ATTENTION");
      assertThat(s.lastError()).contains("AMOUNT_MISMATCH");
      assertThat(s.attention()).containsExactly("amount mismatch — fix: resolve ACCEPT_AMOUNT");
      wf.finish();
    } finally {
      env.close();
    }
  }

  /** A stand-in with the refund workflow's query and current details. */
  @WorkflowInterface
  public interface RefundWaiting {
    @WorkflowMethod(name = "RefundWorkflow")
    void run();

    @SignalMethod
    void finish();

    @QueryMethod
    RefundView state();
  }

  /** Sets its details, then waits for {@code finish}, as a refund whose result is unknown. */
  public static final class RefundWaitingImpl implements RefundWaiting {
    private boolean done;

    @Override
    public void run() {
      Workflow.setCurrentDetails("**UNKNOWN**: the channel has not answered");
      Workflow.await(() -> done);
    }

    @Override
    public void finish() {
      done = true;
    }

    @Override
    public RefundView state() {
      return new RefundView(
          "rfd_1",
          "pay_1",
          RefundWorkflowState.UNKNOWN,
          "SUBMITTED",
          1,
          3,
          1,
          "2026-12-02T10:00:00Z",
          "2026-12-02T10:05:00Z",
          "submit timed out after 5 s",
          null,
          List.of(),
          List.of(),
          List.of(),
          "the channel's answer to query 4 of refund rfd_1",
          "**UNKNOWN**");
    }
  }

  @Test
  void refundWorkflow_isDescribedUnderItsOwnId_withItsStateQuerysReason() {
    TestWorkflowEnvironment env = TestWorkflowEnvironment.newInstance();
    try {
      Worker worker = env.newWorker(TASK_QUEUE);
      worker.registerWorkflowImplementationTypes(RefundWaitingImpl.class);
      env.start();
      RefundWaiting wf =
          env.getWorkflowClient()
              .newWorkflowStub(
                  RefundWaiting.class,
                  WorkflowOptions.newBuilder()
                      .setWorkflowId(WorkflowIds.refund("rfd_1"))
                      .setTaskQueue(TASK_QUEUE)
                      .build());
      String runId = WorkflowClient.start(wf::run).getRunId();

      WorkflowSummary s =
          new WorkflowInspection(env.getWorkflowClient(), URI.create("http://127.0.0.1:8233"))
              .refund("rfd_1");

      assertThat(s.error()).isNull();
      assertThat(s.workflowId()).isEqualTo("refund-rfd_1");
      assertThat(s.runId()).isEqualTo(runId);
      assertThat(s.uiUrl()).endsWith("/workflows/refund-rfd_1/" + runId);
      assertThat(s.currentDetails()).isEqualTo("**UNKNOWN**: the channel has not answered");
      assertThat(s.state()).isEqualTo("UNKNOWN");
      assertThat(s.lastError()).isEqualTo("submit timed out after 5 s");
      assertThat(s.attention()).isEmpty();
      assertThat(s.waitingFor()).startsWith("the channel's answer to query 4");
      wf.finish();
    } finally {
      env.close();
    }
  }

  /** A run whose {@code state} query fails, as a broken build's would. */
  public static final class BrokenStateImpl implements Waiting {
    private boolean done;

    @Override
    public void run() {
      Workflow.await(() -> done);
    }

    @Override
    public void finish() {
      done = true;
    }

    @Override
    public PaymentView state() {
      throw new IllegalStateException("state unreadable in this build");
    }
  }

  @Test
  void failingQuery_isNamedInOneLine_withoutTheWorkersStackTrace() {
    TestWorkflowEnvironment env = TestWorkflowEnvironment.newInstance();
    try {
      Worker worker = env.newWorker(TASK_QUEUE);
      worker.registerWorkflowImplementationTypes(BrokenStateImpl.class);
      env.start();
      Waiting wf =
          env.getWorkflowClient()
              .newWorkflowStub(
                  Waiting.class,
                  WorkflowOptions.newBuilder()
                      .setWorkflowId(WorkflowIds.payment("pay_2"))
                      .setTaskQueue(TASK_QUEUE)
                      .build());
      WorkflowClient.start(wf::run);

      WorkflowSummary s = new WorkflowInspection(env.getWorkflowClient(), null).payment("pay_2");

      assertThat(s.status()).isEqualTo("Running");
      assertThat(s.error())
          .startsWith("its queries failed")
          .contains("state unreadable in this build")
          .doesNotContain("\n")
          .doesNotContain("\tat ");
      wf.finish();
    } finally {
      env.close();
    }
  }

  @Test
  void unknownPayment_isReachable_withNoRun_andSaysSo() {
    TestWorkflowEnvironment env = TestWorkflowEnvironment.newInstance();
    try {
      WorkflowSummary s = new WorkflowInspection(env.getWorkflowClient(), null).payment("pay_none");

      assertThat(s.reachable()).isTrue();
      assertThat(s.runId()).isNull();
      assertThat(s.uiUrl()).isNull();
      assertThat(s.error()).startsWith("no workflow payment-pay_none in namespace");
    } finally {
      env.close();
    }
  }

  @Test
  void closedPort_isUnreachable_namingTheAddress() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    WorkflowServiceStubs stubs =
        WorkflowServiceStubs.newServiceStubs(
            WorkflowServiceStubsOptions.newBuilder().setTarget("127.0.0.1:" + port).build());
    try {
      WorkflowClient client =
          WorkflowClient.newInstance(
              stubs, WorkflowClientOptions.newBuilder().setNamespace("default").build());

      WorkflowSummary s = new WorkflowInspection(client, null).payment("pay_1");

      assertThat(s.reachable()).isFalse();
      assertThat(s.address()).isEqualTo("127.0.0.1:" + port);
      assertThat(s.error()).isEqualTo("Temporal unreachable (127.0.0.1:" + port + ")");
    } finally {
      stubs.shutdownNow();
    }
  }

  @Test
  void statusNames_areTheTemporalUisWords() {
    assertThat(
            WorkflowInspection.statusName(
                WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW))
        .isEqualTo("ContinuedAsNew");
    assertThat(
            WorkflowInspection.statusName(
                WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED))
        .isEqualTo("Completed");
  }
}

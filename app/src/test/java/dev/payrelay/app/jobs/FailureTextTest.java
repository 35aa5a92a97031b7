package dev.payrelay.app.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.domain.failure.FailureText;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.client.WorkflowServiceException;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class FailureTextTest {

  @Test
  void aTemporalWrapper_keepsTheServersReason() {
    StatusRuntimeException server =
        Status.INVALID_ARGUMENT
            .withDescription("invalid value for search attribute PaymentState of type Int")
            .asRuntimeException();
    WorkflowServiceException wrapped =
        new WorkflowServiceException(
            WorkflowExecution.newBuilder().setWorkflowId("payment-pay_1").build(),
            "PaymentWorkflow",
            server);

    String text = FailureText.of(wrapped);

    assertThat(text)
        .startsWith("WorkflowServiceException")
        .contains("caused by StatusRuntimeException: INVALID_ARGUMENT: invalid value for search")
        .contains("PaymentState of type Int");
  }

  @Test
  void aCauseRepeatingItsWrappersMessage_isWrittenOnce() {
    IOException broker =
        new IOException("406 PRECONDITION_FAILED - inequivalent arg 'x-queue-type'");
    RuntimeException wrapper = new RuntimeException(broker);

    assertThat(FailureText.of(wrapper))
        .isEqualTo(
            "RuntimeException: java.io.IOException: 406 PRECONDITION_FAILED - inequivalent"
                + " arg 'x-queue-type'");
  }
}

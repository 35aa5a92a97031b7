package dev.payrelay.workflows;

import static dev.payrelay.workflows.PaymentWorkflowTesting.CONFIRMED;
import static dev.payrelay.workflows.PaymentWorkflowTesting.CREATED;
import static dev.payrelay.workflows.PaymentWorkflowTesting.PAYMENT_ID;
import static dev.payrelay.workflows.PaymentWorkflowTesting.result;
import static dev.payrelay.workflows.PaymentWorkflowTesting.signalWithStart;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;
import static org.mockito.Mockito.withSettings;

import dev.payrelay.workflows.activities.EntitlementActivities;
import dev.payrelay.workflows.activities.GrantResult;
import dev.payrelay.workflows.activities.OutboxActivities;
import dev.payrelay.workflows.activities.PublishRequest;
import dev.payrelay.workflows.activities.PublishResult;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.testing.TestWorkflowExtension;
import io.temporal.testing.WorkflowReplayer;
import io.temporal.worker.Worker;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Replays a committed history of {@link PaymentWorkflowImpl} so a change that would break running
 * workflows (non-determinism) fails here before it ships; such a change needs {@code
 * Workflow.getVersion}, not a new recording.
 *
 * <p>Record a new history only for a new workflow shape, on purpose: {@code ./mvnw -pl workflows
 * -am verify -Dpayrelay.recordHistories=true}, then commit the file.
 */
class PaymentWorkflowReplayTest {

  private static final String HAPPY_PATH = "histories/payment-workflow-happy-path.json";

  @RegisterExtension
  static final TestWorkflowExtension testWorkflow = PaymentWorkflowTesting.extension();

  @Test
  void committedHappyPathHistory_replaysWithoutNonDeterminism() throws Exception {
    String history = readResource(HAPPY_PATH);
    assertThat(history).contains("OutboxPublish").contains("EntitlementGrant");

    WorkflowReplayer.replayWorkflowExecution(history, PaymentWorkflowImpl.class);
  }

  @Test
  @EnabledIfSystemProperty(named = "payrelay.recordHistories", matches = "true")
  void recordHappyPathHistory(
      TestWorkflowEnvironment env, WorkflowClient client, WorkflowOptions options, Worker worker)
      throws IOException {
    OutboxActivities outbox = mock(OutboxActivities.class, withSettings().withoutAnnotations());
    when(outbox.publish(any()))
        .thenAnswer(
            call -> new PublishResult(call.<PublishRequest>getArgument(0).eventId(), false));
    EntitlementActivities entitlements =
        mock(EntitlementActivities.class, withSettings().withoutAnnotations());
    when(entitlements.grant(any()))
        .thenReturn(new GrantResult(PAYMENT_ID, List.of("course-1"), List.of("course-2")));
    worker.registerActivitiesImplementations(outbox, entitlements);
    PaymentWorkflow workflow = signalWithStart(client, options, CREATED);
    env.start();
    workflow.onOutboxEvent(CONFIRMED);
    assertThat(result(workflow).state()).isEqualTo(PaymentWorkflowState.FULFILLED);

    String json = client.fetchHistory(WorkflowIds.payment(PAYMENT_ID)).toJson(true);
    Path target = Path.of("src/test/resources").resolve(HAPPY_PATH);
    Files.createDirectories(target.getParent());
    Files.writeString(target, json);
  }

  private static String readResource(String name) throws IOException {
    try (InputStream in =
        PaymentWorkflowReplayTest.class.getClassLoader().getResourceAsStream(name)) {
      assertThat(in).as("committed history %s", name).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}

package dev.payrelay.workflows;

import static org.assertj.core.api.Assertions.fail;

import dev.payrelay.domain.event.EventType;
import io.temporal.api.enums.v1.IndexedValueType;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.common.SearchAttributeKey;
import io.temporal.testing.TestWorkflowExtension;
import java.time.Duration;
import java.util.function.Predicate;

/** Shared fixtures for {@link PaymentWorkflowImpl} tests: environment, ids, signals, polling. */
final class PaymentWorkflowTesting {

  static final String PAYMENT_ID = "pay-1";
  static final PaymentWorkflowInput INPUT =
      new PaymentWorkflowInput(PAYMENT_ID, "tenant-1", "order-1", "sandbox");
  static final OutboxEventSignal CREATED =
      new OutboxEventSignal("evt-created", EventType.PAYMENT_CREATED.wireName(), 1);
  static final OutboxEventSignal CONFIRMED =
      new OutboxEventSignal("evt-confirmed", EventType.PAYMENT_CONFIRMED.wireName(), 2);

  /** How long a test waits for the workflow to reach a state it never completes from. */
  private static final Duration AWAIT_LIMIT = Duration.ofSeconds(10);

  private PaymentWorkflowTesting() {}

  /** An environment with the payment search attributes registered; workers start on demand. */
  static TestWorkflowExtension extension() {
    TestWorkflowExtension.Builder builder =
        TestWorkflowExtension.newBuilder()
            .registerWorkflowImplementationTypes(PaymentWorkflowImpl.class)
            .setDoNotStart(true);
    for (SearchAttributeKey<String> key : PaymentSearchAttributes.ALL) {
      builder.registerSearchAttribute(key.getName(), IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD);
    }
    return builder.build();
  }

  /** Starts the payment's workflow with its first event, as the outbox dispatcher does. */
  static PaymentWorkflow signalWithStart(
      WorkflowClient client, WorkflowOptions options, OutboxEventSignal first) {
    return signalWithStart(client, options, INPUT, first);
  }

  /** Starts the payment's workflow with {@code input} and its first event. */
  static PaymentWorkflow signalWithStart(
      WorkflowClient client,
      WorkflowOptions options,
      PaymentWorkflowInput input,
      OutboxEventSignal first) {
    PaymentWorkflow workflow =
        client.newWorkflowStub(
            PaymentWorkflow.class,
            WorkflowOptions.newBuilder(options)
                .setWorkflowId(WorkflowIds.payment(PAYMENT_ID))
                .build());
    var request = client.newSignalWithStartRequest();
    request.add(workflow::run, input);
    request.add(workflow::onOutboxEvent, first);
    client.signalWithStart(request);
    return workflow;
  }

  /** Waits for the workflow's result (time skipping makes retry backoff instant). */
  static PaymentView result(PaymentWorkflow workflow) {
    return WorkflowStub.fromTyped(workflow).getResult(PaymentView.class);
  }

  /** The {@code PaymentState} search attribute as the server holds it. */
  static String paymentStateAttribute(PaymentWorkflow workflow) {
    return WorkflowStub.fromTyped(workflow)
        .describe()
        .getTypedSearchAttributes()
        .get(PaymentSearchAttributes.PAYMENT_STATE);
  }

  /** Queries until the view matches, for workflows that wait instead of completing. */
  static PaymentView awaitView(PaymentWorkflow workflow, Predicate<PaymentView> until)
      throws InterruptedException {
    long deadline = System.nanoTime() + AWAIT_LIMIT.toNanos();
    PaymentView view = workflow.state();
    while (!until.test(view)) {
      if (System.nanoTime() > deadline) {
        fail("workflow never reached the expected view; last: %s", view);
      }
      Thread.sleep(20);
      view = workflow.state();
    }
    return view;
  }
}

package dev.payrelay.e2e;

import static dev.payrelay.workflows.PaymentWorkflowState.FULFILLED;
import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.e2e.HistoryRecorder.Run;
import dev.payrelay.tools.bench.BillableActions;
import dev.payrelay.workflows.PaymentSearchAttributes;
import dev.payrelay.workflows.WorkflowIds;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.common.SearchAttributes;
import io.temporal.common.WorkflowExecutionHistory;
import org.junit.jupiter.api.Test;

/**
 * What one happy-path payment costs on Temporal, counted from its real history on the dev server
 * through a whole payrelay (signed callback, the sandbox, RabbitMQ): at most 6 Temporal Cloud
 * billable actions ({@link BillableActions}, issue 29's target) and no workflow task that upserts
 * search attributes twice, while the search attributes still tell its story (set at start, {@code
 * FULFILLED} at the end). A count, not a timing.
 */
class PaymentActionsEndToEndTest {

  /** Issue 29's target for a happy-path payment. */
  private static final int MOST_ACTIONS = 6;

  @Test
  void happyPathPayment_costsAtMostSixActions_andUpsertsAtMostOncePerTask() throws Exception {
    try (PayrelayHarness payrelay = new PayrelayHarness(getClass(), HistoryRecordingTest.QUIET)) {
      HistoryRecorder histories = new HistoryRecorder(payrelay);
      String payment = payrelay.createPayment(1050, "USD", "c1", "c2");
      Run run = histories.currentRun(WorkflowIds.payment(payment));
      SearchAttributes atStart = attributes(payrelay, run);
      payrelay.payAtSandbox(payment, "{}");
      histories.awaitCompleted(run, FULFILLED);

      WorkflowExecutionHistory history = histories.history(run);
      BillableActions.Tally tally = BillableActions.of(history.getEvents());

      String events = describe(history);
      assertThat(atStart.get(PaymentSearchAttributes.PAYMENT_ID)).isEqualTo(payment);
      assertThat(atStart.get(PaymentSearchAttributes.TENANT_ID)).isNotBlank();
      assertThat(atStart.get(PaymentSearchAttributes.ORDER_ID)).isNotBlank();
      assertThat(atStart.get(PaymentSearchAttributes.CHANNEL)).isEqualTo("sandbox");
      assertThat(tally.actions()).as(events).isLessThanOrEqualTo(MOST_ACTIONS);
      assertThat(tally.mostUpsertsInOneTask()).as(events).isLessThanOrEqualTo(1);
      assertThat(payrelay.paymentState(payment)).isEqualTo(FULFILLED.name());
      System.out.printf("happy-path payment: %s; %s%n", tally, events);
    }
  }

  /** The run's search attributes as the server holds them now. */
  private static SearchAttributes attributes(PayrelayHarness payrelay, Run run) {
    return payrelay
        .stack
        .temporal()
        .client()
        .newUntypedWorkflowStub(run.workflowId())
        .describe()
        .getTypedSearchAttributes();
  }

  /** The history's event types in order, for a failure's message. */
  private static String describe(WorkflowExecutionHistory history) {
    StringBuilder text = new StringBuilder();
    for (HistoryEvent e : history.getEvents()) {
      EventType type = e.getEventType();
      text.append(text.isEmpty() ? "" : ", ")
          .append(e.getEventId())
          .append(' ')
          .append(type.name().substring("EVENT_TYPE_".length()));
    }
    return text.toString();
  }
}

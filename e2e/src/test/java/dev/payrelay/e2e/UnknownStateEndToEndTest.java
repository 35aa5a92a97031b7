package dev.payrelay.e2e;

import static dev.payrelay.ledger.db.generated.Tables.ENTITLEMENT;
import static dev.payrelay.ledger.db.generated.Tables.OPERATOR_ACTION;
import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.payrelay.channels.sandbox.SandboxNotification;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.simulators.sandbox.SandboxMode;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * When the callback never comes: the payment's workflow asks the channel, and at the deadline
 * closes and expires it. Short grace, query interval and payment lifetime keep the test quick.
 */
class UnknownStateEndToEndTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(40);
  private static PayrelayHarness payrelay;
  private static DSLContext dsl;

  @BeforeAll
  static void start() throws Exception {
    payrelay =
        new PayrelayHarness(
            UnknownStateEndToEndTest.class,
            Map.of(
                "PAYRELAY_QUERY_GRACE",
                "1s",
                "PAYRELAY_QUERY_INITIAL",
                "1s",
                "PAYRELAY_QUERY_MAX",
                "2s",
                "PAYRELAY_PAYMENT_TTL",
                "8s",
                "PAYRELAY_EXPIRY_SWEEP",
                "2s",
                "PAYRELAY_EXPIRY_SWEEP_GRACE",
                "1s"));
    dsl = payrelay.stack.services().database().dsl();
  }

  @AfterAll
  static void stop() throws Exception {
    payrelay.close();
  }

  @AfterEach
  void normalChannel() {
    payrelay.stack.sandbox().setMode(SandboxMode.NORMAL);
  }

  @Test
  void droppedCallback_paymentIsPaidAndGrantedThroughTheQueryAlone_andALateCallbackIsADuplicate()
      throws Exception {
    payrelay.stack.sandbox().setMode(SandboxMode.NORMAL.droppingCallbacks());
    String paymentId = payrelay.createPayment(1050, "USD", "c1", "c2");
    payrelay.payAtSandbox(paymentId, "{}");

    await()
        .atMost(TIMEOUT)
        .until(() -> granted(paymentId) == 2 && "PAID".equals(status(paymentId)));

    String payload =
        dsl.select(OUTBOX_EVENT.PAYLOAD)
            .from(OUTBOX_EVENT)
            .where(
                OUTBOX_EVENT
                    .AGGREGATE_ID
                    .eq(paymentId)
                    .and(OUTBOX_EVENT.EVENT_TYPE.eq("PaymentConfirmed")))
            .fetchSingle()
            .value1();
    assertThat(payload).contains("\"source\":\"QUERY\"");
    SandboxNotification late =
        payrelay.stack.sandbox().payment(paymentId).orElseThrow().notification();
    PayrelayHarness.SignedCallback cb = payrelay.signedCallback(late);
    HttpResponse<String> answer = payrelay.postWebhook(cb.raw(), cb.headers());
    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.body()).contains("DUPLICATE");
    assertThat(Payments.events(dsl, paymentId, "PaymentConfirmed")).isEqualTo(1);
  }

  @Test
  void neverPaid_isClosedAtTheChannelAndExpired_atItsDeadline() throws Exception {
    String paymentId = payrelay.createPayment(500, "JPY", "c1");

    await().atMost(TIMEOUT).until(() -> "EXPIRED".equals(status(paymentId)));

    assertThat(payrelay.stack.sandbox().payment(paymentId).orElseThrow().status().name())
        .isEqualTo("CLOSED");
    assertThat(
            dsl.fetchCount(
                OUTBOX_EVENT,
                OUTBOX_EVENT
                    .AGGREGATE_ID
                    .eq(paymentId)
                    .and(OUTBOX_EVENT.EVENT_TYPE.eq("PaymentClosed"))))
        .isEqualTo(1);
    assertThat(granted(paymentId)).isZero();
  }

  @Test
  void reconciliationOnDemand_runsTheDayToCompletion_andADroppedCallbacksPaymentIsConfirmedOnce()
      throws Exception {
    payrelay.stack.sandbox().setMode(SandboxMode.NORMAL.droppingCallbacks());
    String paymentId = payrelay.createPayment(2500, "USD", "c9");
    payrelay.payAtSandbox(paymentId, "{}");
    String today = java.time.LocalDate.now(java.time.ZoneOffset.UTC).toString();

    HttpResponse<String> started =
        payrelay.post(
            payrelay.api("/v1/admin/reconciliations"),
            ("{\"channel\":\"sandbox\",\"date\":\""
                    + today
                    + "\",\"reason\":\"callback lost\",\"operator\":\"mallory\"}")
                .getBytes(),
            Map.of("Content-Type", "application/json"));

    assertThat(started.statusCode()).isEqualTo(202);
    assertThat(started.body()).contains("recon-sandbox-" + today);
    // Audited under the key's operator; the body's is ignored.
    assertThat(
            dsl.select(OPERATOR_ACTION.OPERATOR_NAME, OPERATOR_ACTION.REASON)
                .from(OPERATOR_ACTION)
                .where(OPERATOR_ACTION.ACTION.eq("RECONCILE"))
                .and(OPERATOR_ACTION.TARGET_ID.eq("recon-sandbox-" + today))
                .fetch()
                .map(r -> r.value1() + " " + r.value2()))
        .containsExactly("alice callback lost");
    await()
        .atMost(TIMEOUT)
        .until(() -> "PAID".equals(status(paymentId)) && granted(paymentId) == 1);
    await()
        .atMost(TIMEOUT)
        .until(
            () ->
                payrelay
                    .trail("/v1/admin/reconciliations/sandbox/" + today)
                    .path("run")
                    .path("status")
                    .asText()
                    .equals("COMPLETED"));
    assertThat(Payments.events(dsl, paymentId, "PaymentConfirmed")).isEqualTo(1);
    assertThat(
            payrelay
                .post(
                    payrelay.api("/v1/admin/reconciliations"),
                    "{\"channel\":\"nope\",\"date\":\"x\"}".getBytes(),
                    Map.of())
                .statusCode())
        .isEqualTo(400);
  }

  @Test
  void paymentWhoseWorkflowWasLost_isStillExpired_byTheSweep() throws Exception {
    String paymentId = payrelay.createPayment(700, "JPY", "c1");
    var client = payrelay.stack.temporal().client();
    String workflowId = dev.payrelay.workflows.WorkflowIds.payment(paymentId);
    await()
        .atMost(TIMEOUT)
        .ignoreExceptions()
        .until(() -> client.newUntypedWorkflowStub(workflowId).describe() != null);
    client.newUntypedWorkflowStub(workflowId).terminate("lost, as with a restarted dev server");

    await().atMost(TIMEOUT).until(() -> "EXPIRED".equals(status(paymentId)));

    assertThat(
            dsl.fetchCount(
                OUTBOX_EVENT,
                OUTBOX_EVENT
                    .AGGREGATE_ID
                    .eq(paymentId)
                    .and(OUTBOX_EVENT.EVENT_TYPE.eq("PaymentClosed"))))
        .isEqualTo(1);
    assertThat(
            dsl.fetchCount(
                dev.payrelay.ledger.db.generated.Tables.OPERATOR_ACTION,
                dev.payrelay.ledger.db.generated.Tables.OPERATOR_ACTION
                    .TARGET_ID
                    .eq(paymentId)
                    .and(
                        dev.payrelay.ledger.db.generated.Tables.OPERATOR_ACTION.OPERATOR_NAME.eq(
                            "payrelay-sweeper"))))
        .isGreaterThanOrEqualTo(1);
  }

  private static String status(String paymentId) {
    return dsl.select(PAYMENT_ORDER.STATUS)
        .from(PAYMENT_ORDER)
        .where(PAYMENT_ORDER.PAYMENT_ID.eq(paymentId))
        .fetchSingle()
        .value1();
  }

  private static int granted(String paymentId) {
    return dsl.fetchCount(ENTITLEMENT, ENTITLEMENT.PURCHASE_ID.eq(paymentId));
  }
}

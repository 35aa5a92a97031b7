package dev.payrelay.e2e;

import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_EXCEPTION;
import static dev.payrelay.ledger.db.generated.Tables.RECONCILIATION_ITEM;
import static dev.payrelay.ledger.db.generated.Tables.REFUND;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.GetResponse;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.RefundState;
import dev.payrelay.simulators.RefundMode;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Reconciliation of refunds (issue 28 item 5) through a whole payrelay on the real Temporal dev
 * server, started by {@code payrelay reconcile}: a refund whose callback was lost is queried to
 * SUCCEEDED (or, while the channel still answers PENDING, left open for the next run), a dashboard
 * refund is recorded once across two runs, a refund the statement leaves out is listed for review.
 * The tests share the day's statement, so each asserts on its own payment's items.
 */
class ReconciliationRefundEndToEndTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final RefundMode CALLBACKS_LOST =
      RefundMode.NORMAL.callbacks(RefundMode.Callbacks.DROP, Duration.ZERO);

  private static PayrelayHarness payrelay;

  @BeforeAll
  static void start() throws Exception {
    payrelay =
        new PayrelayHarness(ReconciliationRefundEndToEndTest.class, HistoryRecordingTest.QUIET);
  }

  @AfterAll
  static void stop() throws Exception {
    payrelay.close();
  }

  @Test
  void refundWhoseCallbackWasLost_isQueriedByTheDaysReconciliation_toSucceeded_withOneEvent()
      throws Exception {
    String p = paidAndGranted(1050);
    payrelay.stack.sandbox().setRefundMode(p, CALLBACKS_LOST);
    JsonNode refund = requestRefund(p, 300);
    submitAtSandbox(p, refund.path("refundNo").asText(), "3.00");
    // The refund workflow's lost submit answer (LOSE_TRACK), which is that workflow's to write.
    dsl()
        .update(REFUND)
        .set(REFUND.STATE, RefundState.UNKNOWN.name())
        .where(REFUND.REFUND_ID.eq(refund.path("refundId").asText()))
        .execute();

    CliRun run = reconcile();

    assertThat(run.exit()).as(run.out() + run.err()).isZero();
    assertThat(run.out()).containsPattern("gap REFUND_NOT_CONFIRMED +[1-9]");
    assertThat(items(p))
        .singleElement()
        .satisfies(
            i -> {
              assertThat(i.get(RECONCILIATION_ITEM.KIND)).isEqualTo("REFUND_NOT_CONFIRMED");
              assertThat(i.get(RECONCILIATION_ITEM.REPAIR_STATUS)).isEqualTo("DONE");
            });
    assertThat(refundState(refund.path("refundId").asText())).isEqualTo("SUCCEEDED");
    assertThat(payrelay.status(p)).isEqualTo("PARTIALLY_REFUNDED");
    await().atMost(Duration.ofSeconds(60)).until(() -> payrelay.sent(p, "PaymentRefunded") == 1);
    assertThat(refundedMessages(p)).hasSize(1);
  }

  @Test
  void refundTheChannelStillCallsPending_staysUnknownAndOpen_untilTheNextRunsQuerySettlesIt()
      throws Exception {
    String p = paidAndGranted(1200);
    // The submit's answer and the first query's say PENDING though the statement lists it.
    payrelay.stack.sandbox().setRefundMode(p, CALLBACKS_LOST.pendingFor(2));
    JsonNode refund = requestRefund(p, 500);
    String refundId = refund.path("refundId").asText();
    submitAtSandbox(p, refund.path("refundNo").asText(), "5.00");
    dsl()
        .update(REFUND)
        .set(REFUND.STATE, RefundState.UNKNOWN.name())
        .where(REFUND.REFUND_ID.eq(refundId))
        .execute();

    CliRun first = reconcile();

    assertThat(first.exit()).as(first.out() + first.err()).isZero();
    assertThat(items(p))
        .singleElement()
        .satisfies(
            i -> {
              assertThat(i.get(RECONCILIATION_ITEM.KIND)).isEqualTo("REFUND_NOT_CONFIRMED");
              assertThat(i.get(RECONCILIATION_ITEM.REPAIR_STATUS)).isEqualTo("FAILED");
              assertThat(i.get(RECONCILIATION_ITEM.REPAIR_DETAILS))
                  .contains("answered PENDING")
                  .contains("queried again next run");
            });
    assertThat(refundState(refundId)).as("a PENDING answer applies nothing").isEqualTo("UNKNOWN");
    assertThat(payrelay.sent(p, "PaymentRefunded")).isZero();

    CliRun second = reconcile();

    assertThat(second.exit()).as(second.out() + second.err()).isZero();
    assertThat(items(p))
        .singleElement()
        .satisfies(i -> assertThat(i.get(RECONCILIATION_ITEM.REPAIR_STATUS)).isEqualTo("DONE"));
    assertThat(refundState(refundId)).isEqualTo("SUCCEEDED");
    await().atMost(Duration.ofSeconds(60)).until(() -> payrelay.sent(p, "PaymentRefunded") == 1);
  }

  @Test
  void dashboardRefund_isRecordedOnce_asAChannelRefundForReview_acrossTwoRuns() throws Exception {
    String p = paidAndGranted(2000);
    payrelay.stack.sandbox().setRefundMode(p, CALLBACKS_LOST);
    String dashboardId =
        payrelay.stack.sandbox().dashboardRefund(p, Money.ofMinor(250, "USD")).refundId();

    CliRun first = reconcile();
    CliRun second = reconcile();

    assertThat(first.exit()).as(first.out() + first.err()).isZero();
    assertThat(second.exit()).as(second.out() + second.err()).isZero();
    assertThat(first.out()).containsPattern("gap UNRECORDED_REFUND +[1-9]");
    assertThat(items(p))
        .singleElement()
        .satisfies(
            i -> {
              assertThat(i.get(RECONCILIATION_ITEM.KIND)).isEqualTo("UNRECORDED_REFUND");
              assertThat(i.get(RECONCILIATION_ITEM.REPAIR_STATUS)).isEqualTo("DONE");
            });
    assertThat(dsl().select().from(REFUND).where(REFUND.PAYMENT_ID.eq(p)).fetch())
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.get(REFUND.ORIGIN)).isEqualTo("CHANNEL");
              assertThat(r.get(REFUND.STATE)).isEqualTo("SUCCEEDED");
              assertThat(r.get(REFUND.CHANNEL_REFUND_ID)).isEqualTo(dashboardId);
            });
    assertThat(
            dsl()
                .select(PAYMENT_EXCEPTION.KIND)
                .from(PAYMENT_EXCEPTION)
                .where(PAYMENT_EXCEPTION.PAYMENT_ID.eq(p))
                .fetch(PAYMENT_EXCEPTION.KIND))
        .containsExactly("REFUND_NOT_REQUESTED");
    await().atMost(Duration.ofSeconds(60)).until(() -> payrelay.sent(p, "PaymentRefunded") == 1);
  }

  @Test
  void refundTheStatementLeavesOut_isListedAsRefundMissingFromStatement_inTheCliAndTheReport()
      throws Exception {
    String p = paidAndGranted(3000);
    JsonNode refund = requestRefund(p, 500);
    String refundId = refund.path("refundId").asText();
    submitAtSandbox(p, refund.path("refundNo").asText(), "5.00");
    // Its callback is delivered: payrelay records it SUCCEEDED before the day is reconciled.
    await().atMost(Duration.ofSeconds(60)).until(() -> "SUCCEEDED".equals(refundState(refundId)));
    String channelRefundId =
        dsl()
            .select(REFUND.CHANNEL_REFUND_ID)
            .from(REFUND)
            .where(REFUND.REFUND_ID.eq(refundId))
            .fetchSingle()
            .value1();
    payrelay.stack.sandbox().omitRefundFromStatement(channelRefundId);

    CliRun run = reconcile();

    assertThat(run.exit()).as(run.out() + run.err()).isZero();
    assertThat(run.out()).containsPattern("gap REFUND_MISSING_FROM_STATEMENT +[1-9]");
    assertThat(items(p))
        .singleElement()
        .satisfies(
            i -> {
              assertThat(i.get(RECONCILIATION_ITEM.KIND))
                  .isEqualTo("REFUND_MISSING_FROM_STATEMENT");
              assertThat(i.get(RECONCILIATION_ITEM.REPAIR)).isEqualTo("REVIEW");
              assertThat(i.get(RECONCILIATION_ITEM.REFUND_ID)).isEqualTo(refundId);
            });
    JsonNode report = payrelay.trail("/v1/admin/reconciliations/sandbox/" + today());
    assertThat(report.path("itemsByKind").path("REFUND_MISSING_FROM_STATEMENT").asInt())
        .isPositive();
  }

  /** A sandbox payment paid (callback delivered) and granted, so its own line is no gap. */
  private static String paidAndGranted(long minor) throws Exception {
    String p = payrelay.createPayment(minor, "USD", "c1");
    HttpResponse<String> paid = payrelay.payAtSandbox(p, "{}");
    assertThat(paid.statusCode()).as(paid.body()).isEqualTo(200);
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> "PAID".equals(payrelay.status(p)) && payrelay.granted(p) == 1);
    return p;
  }

  /** {@code POST /v1/payments/{id}/refunds}: the refund REQUESTED with our refund number. */
  private static JsonNode requestRefund(String p, long minor) throws Exception {
    HttpResponse<String> r =
        payrelay.post(
            payrelay.api("/v1/payments/" + p + "/refunds"),
            ("{\"amountMinor\":" + minor + ",\"reason\":\"course cancelled\"}")
                .getBytes(StandardCharsets.UTF_8),
            Map.of(
                "Content-Type", "application/json", "Idempotency-Key", "k-" + UUID.randomUUID()));
    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    return JSON.readTree(r.body());
  }

  /** The submit the refund workflow makes: the sandbox refunds under our refund number. */
  private static void submitAtSandbox(String p, String refundNo, String amount) throws Exception {
    HttpResponse<String> r =
        payrelay.post(
            payrelay.sandbox("/sandbox/v1/payments/" + p + "/refunds"),
            ("{\"refund_no\":\""
                    + refundNo
                    + "\",\"amount\":\""
                    + amount
                    + "\",\"currency\":\"USD\",\"reason\":\"course cancelled\"}")
                .getBytes(StandardCharsets.UTF_8),
            Map.of("Content-Type", "application/json"));
    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
  }

  private static CliRun reconcile() {
    return CliRun.of(
        payrelay.env, "reconcile", "--channel", "sandbox", "--date", today().toString());
  }

  private static LocalDate today() {
    return LocalDate.now(ZoneOffset.UTC);
  }

  private static List<Record> items(String paymentId) {
    return dsl()
        .select()
        .from(RECONCILIATION_ITEM)
        .where(RECONCILIATION_ITEM.PAYMENT_ID.eq(paymentId))
        .fetch()
        .stream()
        .map(r -> (Record) r)
        .toList();
  }

  private static String refundState(String refundId) {
    return dsl()
        .select(REFUND.STATE)
        .from(REFUND)
        .where(REFUND.REFUND_ID.eq(refundId))
        .fetchSingle()
        .value1();
  }

  /** The payment.refunded messages about the payment on the test queue (others are dropped). */
  private static List<GetResponse> refundedMessages(String paymentId) throws Exception {
    List<GetResponse> mine = new ArrayList<>();
    try (Channel ch = payrelay.amqpChannel()) {
      for (GetResponse r = ch.basicGet(payrelay.queue, true);
          r != null;
          r = ch.basicGet(payrelay.queue, true)) {
        if (r.getEnvelope().getRoutingKey().equals("payment.refunded")
            && new String(r.getBody(), StandardCharsets.UTF_8).contains(paymentId)) {
          mine.add(r);
        }
      }
    }
    return mine;
  }

  private static DSLContext dsl() {
    return payrelay.stack.services().database().dsl();
  }
}

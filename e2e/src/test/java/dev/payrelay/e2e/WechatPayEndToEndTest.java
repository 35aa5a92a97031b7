package dev.payrelay.e2e;

import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_EXCEPTION;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;
import static dev.payrelay.ledger.db.generated.Tables.REFUND;
import static dev.payrelay.ledger.db.generated.Tables.WEBHOOK_INBOX;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.GetResponse;
import dev.payrelay.channels.sandbox.SandboxNotification;
import dev.payrelay.devstack.ChannelSimulators;
import dev.payrelay.ledger.db.generated.tables.records.OutboxEventRecord;
import dev.payrelay.ledger.db.generated.tables.records.WebhookInboxRecord;
import dev.payrelay.simulators.wechatpay.SimulatedWechatNotification;
import dev.payrelay.simulators.wechatpay.WechatPaySimulator;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Payments on the WeChat Pay channel end to end: created through {@code POST /v1/payments} (a
 * Native prepay at the {@link WechatPaySimulator} dev starts), paid by the buyer at the simulator,
 * which posts the RSA-signed notification with its AES-256-GCM encrypted resource to {@code
 * /v1/webhooks/wechatpay}; on real MariaDB, RabbitMQ and Temporal. The workflow asks the channel
 * after a 5 s grace, long enough for the callbacks these tests send right after creating a payment.
 */
class WechatPayEndToEndTest {

  private static final Duration TRAIL_TIMEOUT = Duration.ofSeconds(30);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static PayrelayHarness payrelay;
  private static WechatPaySimulator wechatpay;
  private static DSLContext dsl;

  @BeforeAll
  static void start() throws Exception {
    payrelay =
        new PayrelayHarness(
            WechatPayEndToEndTest.class,
            Map.of(
                "PAYRELAY_WECHATPAY_ENABLED", "true",
                "PAYRELAY_QUERY_GRACE", "5s",
                "PAYRELAY_QUERY_INITIAL", "1s"));
    wechatpay = payrelay.stack.simulators().wechatpay().orElseThrow();
    dsl = payrelay.stack.services().database().dsl();
  }

  @AfterAll
  static void stop() throws Exception {
    payrelay.close();
  }

  @Test
  void buyerPaysAtWechatPay_paymentIsPaid_confirmedPublished_entitlementsGranted()
      throws Exception {
    JsonNode created = create(1050, "course-a", "course-b");
    String paymentId = created.path("payment").path("paymentId").asText();
    assertThat(created.path("payUrl").asText()).startsWith("weixin://wxpay/bizpayurl?pr=");

    SimulatedWechatNotification paid = wechatpay.pay(paymentId);

    assertThat(paid.httpStatus()).as("payrelay's answer: %s", paid).isEqualTo(200);
    assertThat(JSON.readTree(paid.answer()).path("code").asText()).isEqualTo("SUCCESS");
    assertTrail(paymentId, 2);
    var order = dsl.fetchSingle(PAYMENT_ORDER, PAYMENT_ORDER.PAYMENT_ID.eq(paymentId));
    assertThat(order.getChannel()).isEqualTo("wechatpay");
    assertThat(order.getMerchantId()).isEqualTo(ChannelSimulators.WECHATPAY_MCH_ID);
    assertThat(order.getChannelTxnId()).isEqualTo(wechatpay.transactionId(paymentId).orElseThrow());
    WebhookInboxRecord inbox = inboxOf(paid.id());
    assertThat(inbox.getOutcome()).isEqualTo("CONFIRMED");
    assertThat(inbox.getSignatureValid()).isTrue();
    assertThat(inbox.getHttpStatus()).isEqualTo(200);
    assertThat(inbox.getPaymentId()).isEqualTo(paymentId);
    OutboxEventRecord confirmed = confirmedEvent(paymentId);
    assertThat(JSON.readTree(confirmed.getPayload()).path("source").asText()).isEqualTo("CALLBACK");
    assertPublished(confirmed.getEventId());
  }

  @Test
  void notificationWithOneFlippedBit_isRefused_recordedInInbox_andTheGenuineOneStillConfirms()
      throws Exception {
    String paymentId = create(600, "c1").path("payment").path("paymentId").asText();
    SimulatedWechatNotification genuine = successFor(paymentId, 600);
    byte[] tampered = genuine.rawBody();
    // "TRANSACTION.SUCCESS" becomes "TRANSACTION.RUCCESS": one bit, still well-formed JSON.
    int at = new String(tampered, StandardCharsets.UTF_8).indexOf(".SUCCESS") + 1;
    tampered[at] ^= 0x01;

    HttpResponse<String> refused = payrelay.postWebhook("wechatpay", tampered, genuine.headers());

    assertThat(refused.statusCode()).isEqualTo(401);
    assertThat(refused.body()).doesNotContain("SUCCESS").contains("BAD_SIGNATURE");
    WebhookInboxRecord row = inboxRow(refused);
    assertThat(row.getChannel()).isEqualTo("wechatpay");
    assertThat(row.getOutcome()).isEqualTo("BAD_SIGNATURE");
    assertThat(row.getSignatureValid()).isFalse();
    assertThat(row.getHttpStatus()).isEqualTo(401);
    assertThat(row.getRawBody()).isEqualTo(tampered);
    assertThat(row.getOutcomeDetail()).startsWith("Wechatpay-Signature does not verify");
    assertThat(payrelay.status(paymentId)).isEqualTo("PENDING");

    HttpResponse<String> accepted =
        payrelay.postWebhook("wechatpay", genuine.rawBody(), genuine.headers());

    assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(200);
    assertTrail(paymentId, 1);
  }

  @Test
  void notificationNamingAnUnknownWechatpaySerial_isRefused_andRecordedWithItsReason()
      throws Exception {
    String paymentId = create(700, "c1").path("payment").path("paymentId").asText();
    SimulatedWechatNotification genuine = successFor(paymentId, 700);
    // Signed by the right key, but naming a key id payrelay was not given.
    Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    headers.putAll(genuine.headers());
    String unknown = "PUB_KEY_ID_0119000000012026120100000000000999";
    headers.put("Wechatpay-Serial", unknown);

    HttpResponse<String> refused = payrelay.postWebhook("wechatpay", genuine.rawBody(), headers);

    assertThat(refused.statusCode()).isEqualTo(401);
    WebhookInboxRecord row = inboxRow(refused);
    assertThat(row.getOutcome()).isEqualTo("BAD_SIGNATURE");
    assertThat(row.getSignatureValid()).isFalse();
    assertThat(row.getOutcomeDetail())
        .isEqualTo(
            "Wechatpay-Serial "
                + unknown
                + " is not the configured WeChat Pay public key id "
                + payrelay.wiredConfig().wechatpay().publicKeyId());
    assertThat(row.getRawBody()).isEqualTo(genuine.rawBody());
    assertThat(payrelay.status(paymentId)).isEqualTo("PENDING");
  }

  @Test
  void callbackThatNeverArrives_theWorkflowsQueryAtWechatPayConfirmsThePayment() throws Exception {
    String paymentId = create(900, "c1").path("payment").path("paymentId").asText();
    String apiV3Key = payrelay.wiredConfig().wechatpay().apiV3Key();
    SimulatedWechatNotification lost;
    // Encrypted under another key, the notification is refused: payrelay hears nothing it can use.
    wechatpay.setApiV3Key("ZZZZZZZZZZabcdefghijABCDEFGHIJ01");
    try {
      lost = wechatpay.pay(paymentId);
    } finally {
      wechatpay.setApiV3Key(apiV3Key);
    }
    assertThat(lost.httpStatus()).isEqualTo(401);
    assertThat(payrelay.status(paymentId)).isEqualTo("PENDING");

    assertTrail(paymentId, 1);
    OutboxEventRecord confirmed = confirmedEvent(paymentId);
    assertThat(JSON.readTree(confirmed.getPayload()).path("source").asText()).isEqualTo("QUERY");
    assertThat(
            dsl.fetchSingle(PAYMENT_ORDER, PAYMENT_ORDER.PAYMENT_ID.eq(paymentId))
                .getChannelTxnId())
        .isEqualTo(wechatpay.transactionId(paymentId).orElseThrow());
  }

  @Test
  void resentNotification_isAcknowledgedAgain_asDuplicate_andWritesNoSecondEvent()
      throws Exception {
    String paymentId = create(1100, "c1").path("payment").path("paymentId").asText();
    SimulatedWechatNotification first = wechatpay.pay(paymentId);
    assertTrail(paymentId, 1);

    SimulatedWechatNotification again = wechatpay.resend(paymentId);

    assertThat(again.id()).isEqualTo(first.id());
    assertThat(again.httpStatus()).as("payrelay's answer: %s", again).isEqualTo(200);
    assertThat(
            dsl.select(WEBHOOK_INBOX.OUTCOME)
                .from(WEBHOOK_INBOX)
                .where(WEBHOOK_INBOX.NOTIFICATION_ID.eq(first.id()))
                .orderBy(WEBHOOK_INBOX.ID)
                .fetch(WEBHOOK_INBOX.OUTCOME))
        .containsExactly("CONFIRMED", "DUPLICATE");
    assertThat(
            dsl.fetchCount(
                OUTBOX_EVENT,
                OUTBOX_EVENT
                    .AGGREGATE_ID
                    .eq(paymentId)
                    .and(OUTBOX_EVENT.EVENT_TYPE.eq("PaymentConfirmed"))))
        .isEqualTo(1);
  }

  @Test
  void refundNotificationOfARefundWeNeverRequested_isVerified_appliedOnce_andReviewed()
      throws Exception {
    String paymentId = create(1200, "c1").path("payment").path("paymentId").asText();
    assertThat(wechatpay.pay(paymentId).httpStatus()).isEqualTo(200);
    assertTrail(paymentId, 1);

    SimulatedWechatNotification refunded = wechatpay.refund(paymentId, "r-" + paymentId, 300);

    assertThat(refunded.httpStatus()).as("payrelay's answer: %s", refunded).isEqualTo(200);
    WebhookInboxRecord row = inboxOf(refunded.id());
    assertThat(row.getSignatureValid()).isTrue();
    assertThat(row.getOutcome()).isEqualTo("REFUND_NOT_REQUESTED");
    assertThat(row.getPaymentId()).isEqualTo(paymentId);
    assertThat(payrelay.status(paymentId)).isEqualTo("PARTIALLY_REFUNDED");
    var refund = dsl.fetchSingle(REFUND, REFUND.PAYMENT_ID.eq(paymentId));
    assertThat(refund.getOrigin()).isEqualTo("CHANNEL");
    assertThat(refund.getAmountMinor()).isEqualTo(300L);
    var exception = dsl.fetchSingle(PAYMENT_EXCEPTION, PAYMENT_EXCEPTION.PAYMENT_ID.eq(paymentId));
    assertThat(exception.getKind()).isEqualTo("REFUND_NOT_REQUESTED");
    assertThat(exception.getStatus()).isEqualTo("OPEN");
  }

  @Test
  void sandboxSignedCallback_namingAWechatPayPayment_changesNothing_andRecordsNoException()
      throws Exception {
    String paymentId = create(88800, "c-premium").path("payment").path("paymentId").asText();
    for (String merchant : List.of(ChannelSimulators.WECHATPAY_MCH_ID, "m_payrelay_dev")) {
      PayrelayHarness.SignedCallback forged =
          payrelay.signedCallback(
              new SandboxNotification(
                  "ntf_forge_" + merchant,
                  merchant,
                  paymentId,
                  "forged-" + merchant,
                  "888.00",
                  "CNY",
                  "PAID",
                  java.time.Instant.now()));

      HttpResponse<String> answer = payrelay.postWebhook(forged.raw(), forged.headers());

      assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
      WebhookInboxRecord row =
          dsl.selectFrom(WEBHOOK_INBOX)
              .where(WEBHOOK_INBOX.CHANNEL.eq("sandbox"))
              .orderBy(WEBHOOK_INBOX.ID.desc())
              .limit(1)
              .fetchSingle();
      assertThat(row.getOutcome()).isEqualTo("OTHER_CHANNEL");
    }
    assertThat(payrelay.status(paymentId)).isEqualTo("PENDING");
    assertThat(payrelay.granted(paymentId)).isZero();
    assertThat(dsl.fetchCount(PAYMENT_EXCEPTION, PAYMENT_EXCEPTION.PAYMENT_ID.eq(paymentId)))
        .isZero();
    assertThat(
            dsl.fetchCount(
                OUTBOX_EVENT,
                OUTBOX_EVENT
                    .AGGREGATE_ID
                    .eq(paymentId)
                    .and(OUTBOX_EVENT.EVENT_TYPE.eq("PaymentConfirmed"))))
        .isZero();
  }

  @Test
  void callbackWithAnotherContentType_isRefusedWith415() throws Exception {
    HttpResponse<String> answer =
        payrelay.postWebhook(
            "wechatpay",
            "a=b".getBytes(StandardCharsets.UTF_8),
            Map.of("Content-Type", "application/x-www-form-urlencoded"));

    assertThat(answer.statusCode()).isEqualTo(415);
  }

  /** A signed, encrypted TRANSACTION.SUCCESS for a payment, built but not sent. */
  private static SimulatedWechatNotification successFor(String paymentId, long fen) {
    String resource =
        """
        {"mchid":"%s","appid":"%s","out_trade_no":"%s","transaction_id":"4200%s",
         "trade_type":"NATIVE","trade_state":"SUCCESS","trade_state_desc":"支付成功",
         "success_time":"2026-12-01T08:00:00+08:00","amount":{"total":%d,"currency":"CNY"}}
        """
            .formatted(
                ChannelSimulators.WECHATPAY_MCH_ID,
                ChannelSimulators.WECHATPAY_APP_ID,
                paymentId,
                String.valueOf(Instant.now().toEpochMilli()),
                fen);
    return wechatpay.signedNotification("TRANSACTION.SUCCESS", "transaction", resource);
  }

  private static void assertTrail(String paymentId, int courses) {
    await()
        .atMost(TRAIL_TIMEOUT)
        .until(
            () ->
                payrelay.sent(paymentId, "PaymentConfirmed") == 1
                    && payrelay.granted(paymentId) == courses);
    assertThat(payrelay.status(paymentId)).isEqualTo("PAID");
  }

  /** The event is on the harness's queue bound to the exchange, with message_id = event_id. */
  private static void assertPublished(String eventId) throws Exception {
    try (Channel channel = payrelay.amqpChannel()) {
      await()
          .atMost(TRAIL_TIMEOUT)
          .until(
              () -> {
                GetResponse r = channel.basicGet(payrelay.queue, true);
                return r != null && eventId.equals(r.getProps().getMessageId());
              });
    }
  }

  private static OutboxEventRecord confirmedEvent(String paymentId) {
    return dsl.fetchSingle(
        OUTBOX_EVENT,
        OUTBOX_EVENT
            .AGGREGATE_ID
            .eq(paymentId)
            .and(OUTBOX_EVENT.EVENT_TYPE.eq("PaymentConfirmed")));
  }

  private static JsonNode create(long fen, String... courses) throws Exception {
    return payrelay.createPaymentAt(
        "wechatpay", "t1", "o-" + UUID.randomUUID(), fen, "CNY", courses);
  }

  private static WebhookInboxRecord inboxRow(HttpResponse<String> answer) throws Exception {
    // WeChat Pay's failure answer: {"code":"FAIL","message":"<outcome> (inbox <id>)"}.
    JsonNode body = JSON.readTree(answer.body());
    assertThat(body.path("code").asText()).isEqualTo("FAIL");
    java.util.regex.Matcher inbox =
        java.util.regex.Pattern.compile("\\(inbox (\\d+)\\)")
            .matcher(body.path("message").asText());
    assertThat(inbox.find()).as(answer.body()).isTrue();
    long inboxId = Long.parseLong(inbox.group(1));
    return dsl.fetchSingle(WEBHOOK_INBOX, WEBHOOK_INBOX.ID.eq(inboxId));
  }

  private static WebhookInboxRecord inboxOf(String notificationId) {
    return dsl.fetchSingle(
        WEBHOOK_INBOX,
        WEBHOOK_INBOX
            .CHANNEL
            .eq("wechatpay")
            .and(WEBHOOK_INBOX.NOTIFICATION_ID.eq(notificationId)));
  }
}

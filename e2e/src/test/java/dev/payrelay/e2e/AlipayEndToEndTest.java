package dev.payrelay.e2e;

import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;
import static dev.payrelay.ledger.db.generated.Tables.WEBHOOK_INBOX;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payrelay.devstack.ChannelSimulators;
import dev.payrelay.ledger.db.generated.tables.records.WebhookInboxRecord;
import dev.payrelay.simulators.alipay.AlipaySimulator;
import dev.payrelay.simulators.alipay.SimulatedNotification;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Payments on the Alipay channel end to end: created through {@code POST /v1/payments} ({@code
 * alipay.trade.precreate} at the {@link AlipaySimulator} dev starts), paid by the buyer at the
 * simulator, which posts the RSA2-signed form notification to {@code /v1/webhooks/alipay}; on real
 * MariaDB, RabbitMQ and Temporal.
 */
class AlipayEndToEndTest {

  private static final Duration TRAIL_TIMEOUT = Duration.ofSeconds(30);
  private static final Charset GBK = Charset.forName("GBK");
  private static final ObjectMapper JSON = new ObjectMapper();
  private static PayrelayHarness payrelay;
  private static AlipaySimulator alipay;
  private static DSLContext dsl;

  @BeforeAll
  static void start() throws Exception {
    payrelay =
        new PayrelayHarness(AlipayEndToEndTest.class, Map.of("PAYRELAY_ALIPAY_ENABLED", "true"));
    alipay = payrelay.stack.simulators().alipay().orElseThrow();
    dsl = payrelay.stack.services().database().dsl();
  }

  @AfterAll
  static void stop() throws Exception {
    payrelay.close();
  }

  @Test
  void buyerPaysAtAlipay_paymentIsPaid_confirmedSent_entitlementsGranted() throws Exception {
    JsonNode created = create("o-" + UUID.randomUUID(), 1050, "course-a", "course-b");
    String paymentId = created.path("payment").path("paymentId").asText();
    assertThat(created.path("payUrl").asText()).endsWith("/qr/" + paymentId);

    SimulatedNotification paid = alipay.pay(paymentId);

    assertThat(paid.acknowledged()).as("payrelay answered success: %s", paid).isTrue();
    assertTrail(paymentId, 2);
    var order = dsl.fetchSingle(PAYMENT_ORDER, PAYMENT_ORDER.PAYMENT_ID.eq(paymentId));
    assertThat(order.getChannel()).isEqualTo("alipay");
    assertThat(order.getMerchantId()).isEqualTo(ChannelSimulators.ALIPAY_APP_ID);
    assertThat(order.getChannelTxnId()).isEqualTo(alipay.trade(paymentId).orElseThrow().tradeNo());
    WebhookInboxRecord inbox = inboxOf(paid.notifyId());
    assertThat(inbox.getOutcome()).isEqualTo("CONFIRMED");
    assertThat(inbox.getPaymentId()).isEqualTo(paymentId);
  }

  @Test
  void gbkEncodedNotification_isVerifiedAndConfirms() throws Exception {
    // The order id travels in the subject ("order <orderId>"), so the body carries GBK bytes.
    String paymentId =
        create("订单-" + UUID.randomUUID(), 800, "c1").path("payment").path("paymentId").asText();
    SimulatedNotification paid;
    alipay.setNotifyCharset(GBK);
    try {
      paid = alipay.pay(paymentId);
    } finally {
      alipay.setNotifyCharset(StandardCharsets.UTF_8);
    }

    String ascii = new String(paid.rawBody(), StandardCharsets.US_ASCII);
    assertThat(ascii).contains("charset=gbk", "subject=order+" + URLEncoder.encode("订单", GBK));
    assertThat(paid.acknowledged()).as("payrelay answered success: %s", paid).isTrue();
    assertTrail(paymentId, 1);
    assertThat(inboxOf(paid.notifyId()).getOutcome()).isEqualTo("CONFIRMED");
  }

  @Test
  void tamperedNotification_isRefused_recordedInInbox_andPaymentStaysPending() throws Exception {
    String paidId =
        create("o-" + UUID.randomUUID(), 600, "c1").path("payment").path("paymentId").asText();
    String pendingId =
        create("o-" + UUID.randomUUID(), 600, "c1").path("payment").path("paymentId").asText();
    byte[] genuine = alipay.pay(paidId).rawBody();
    // The same signed notification, now naming the other (unpaid) payment of the same amount.
    byte[] tampered =
        new String(genuine, StandardCharsets.US_ASCII)
            .replace("out_trade_no=" + paidId, "out_trade_no=" + pendingId)
            .getBytes(StandardCharsets.US_ASCII);
    assertThat(tampered).isNotEqualTo(genuine);

    HttpResponse<String> answer =
        payrelay.postWebhook(
            "alipay",
            tampered,
            Map.of("Content-Type", "application/x-www-form-urlencoded; charset=utf-8"));

    assertThat(answer.statusCode()).isEqualTo(401);
    // Alipay's protocol: anything but "success" is a failed delivery it retries.
    assertThat(answer.body()).isEqualTo("fail");
    assertThat(answer.headers().firstValue("Content-Type"))
        .hasValueSatisfying(type -> assertThat(type).startsWith("text/plain"));
    WebhookInboxRecord row =
        dsl.selectFrom(WEBHOOK_INBOX)
            .where(WEBHOOK_INBOX.CHANNEL.eq("alipay"))
            .orderBy(WEBHOOK_INBOX.ID.desc())
            .limit(1)
            .fetchSingle();
    assertThat(row.getChannel()).isEqualTo("alipay");
    assertThat(row.getOutcome()).isEqualTo("BAD_SIGNATURE");
    assertThat(row.getSignatureValid()).isFalse();
    assertThat(row.getRawBody()).isEqualTo(tampered);
    assertThat(payrelay.status(pendingId)).isEqualTo("PENDING");
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

  private static JsonNode create(String orderId, long fen, String... courses) throws Exception {
    return payrelay.createPaymentAt("alipay", "t1", orderId, fen, "CNY", courses);
  }

  private static WebhookInboxRecord inboxOf(String notificationId) {
    return dsl.fetchSingle(
        WEBHOOK_INBOX,
        WEBHOOK_INBOX.CHANNEL.eq("alipay").and(WEBHOOK_INBOX.NOTIFICATION_ID.eq(notificationId)));
  }
}

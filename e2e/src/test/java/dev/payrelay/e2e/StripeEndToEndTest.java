package dev.payrelay.e2e;

import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_EXCEPTION;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;
import static dev.payrelay.ledger.db.generated.Tables.REFUND;
import static dev.payrelay.ledger.db.generated.Tables.WEBHOOK_INBOX;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.stripe.Stripe;
import com.stripe.net.Webhook;
import dev.payrelay.devstack.ChannelSimulators;
import dev.payrelay.domain.PaymentIds;
import dev.payrelay.ledger.db.generated.tables.records.WebhookInboxRecord;
import dev.payrelay.simulators.stripe.StripeSimulator;
import dev.payrelay.simulators.stripe.StripeWebhookEvent;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Payments on the Stripe channel end to end: created through {@code POST /v1/payments}, paid at the
 * {@link StripeSimulator} dev starts, which POSTs the signed {@code payment_intent.succeeded} event
 * to {@code /v1/webhooks/stripe}; on real MariaDB, RabbitMQ and Temporal.
 */
class StripeEndToEndTest {

  private static final Duration TRAIL_TIMEOUT = Duration.ofSeconds(30);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static PayrelayHarness payrelay;
  private static StripeSimulator stripe;
  private static DSLContext dsl;

  @BeforeAll
  static void start() throws Exception {
    payrelay =
        new PayrelayHarness(StripeEndToEndTest.class, Map.of("PAYRELAY_STRIPE_ENABLED", "true"));
    stripe = payrelay.stack.simulators().stripe().orElseThrow();
    dsl = payrelay.stack.services().database().dsl();
  }

  @AfterAll
  static void stop() throws Exception {
    payrelay.close();
  }

  @Test
  void buyerPaysAtStripe_paymentIsPaid_confirmedSent_entitlementsGranted() throws Exception {
    JsonNode created = create(1050, "USD", "course-a", "course-b");
    String paymentId = created.path("payment").path("paymentId").asText();
    String intent = stripe.intentId(paymentId);
    assertThat(created.path("payUrl").asText()).contains("payment_intent=" + intent);

    StripeWebhookEvent succeeded = stripe.pay(intent);

    assertThat(succeeded.deliveryStatus()).isEqualTo(200);
    await()
        .atMost(TRAIL_TIMEOUT)
        .until(
            () ->
                payrelay.sent(paymentId, "PaymentConfirmed") == 1
                    && payrelay.granted(paymentId) == 2);
    assertThat(payrelay.status(paymentId)).isEqualTo("PAID");
    var order = dsl.fetchSingle(PAYMENT_ORDER, PAYMENT_ORDER.PAYMENT_ID.eq(paymentId));
    assertThat(order.getChannel()).isEqualTo("stripe");
    assertThat(order.getMerchantId()).isEqualTo(ChannelSimulators.STRIPE_ACCOUNT);
    assertThat(order.getChannelTxnId()).isEqualTo(intent);
    WebhookInboxRecord inbox = inboxOf(succeeded.eventId());
    assertThat(inbox.getOutcome()).isEqualTo("CONFIRMED");
    assertThat(inbox.getHttpStatus()).isEqualTo(200);
    assertThat(inbox.getPaymentId()).isEqualTo(paymentId);
  }

  @Test
  void dashboardRefundAndDispute_refundAppliedOnceAndReviewed_disputeIsAnException()
      throws Exception {
    String paymentId = create(2000, "USD", "course-r").path("payment").path("paymentId").asText();
    String intent = stripe.intentId(paymentId);
    stripe.pay(intent);
    await().atMost(TRAIL_TIMEOUT).until(() -> payrelay.granted(paymentId) == 1);

    StripeWebhookEvent refunded = stripe.refund(intent);
    StripeWebhookEvent disputed = stripe.dispute(intent);

    assertThat(refunded.deliveryStatus()).isEqualTo(200);
    assertThat(disputed.deliveryStatus()).isEqualTo(200);
    // A refund made in Stripe's dashboard: recorded as the channel's, applied once, reviewed.
    assertThat(inboxOf(refunded.eventId()).getOutcome()).isEqualTo("REFUND_NOT_REQUESTED");
    assertThat(inboxOf(disputed.eventId()).getOutcome()).isEqualTo("DISPUTED");
    assertThat(
            dsl.select(PAYMENT_EXCEPTION.KIND)
                .from(PAYMENT_EXCEPTION)
                .where(PAYMENT_EXCEPTION.PAYMENT_ID.eq(paymentId))
                .and(PAYMENT_EXCEPTION.STATUS.eq("OPEN"))
                .fetch(PAYMENT_EXCEPTION.KIND))
        .containsExactlyInAnyOrder("REFUND_NOT_REQUESTED", "DISPUTED");
    var refund = dsl.fetchSingle(REFUND, REFUND.PAYMENT_ID.eq(paymentId));
    assertThat(refund.getOrigin()).isEqualTo("CHANNEL");
    assertThat(refund.getState()).isEqualTo("SUCCEEDED");
    assertThat(refund.getAmountMinor()).isEqualTo(2000L);
    assertThat(payrelay.status(paymentId)).isEqualTo("REFUNDED");
    await()
        .atMost(TRAIL_TIMEOUT)
        .until(() -> "NEEDS_ATTENTION".equals(payrelay.paymentState(paymentId)));
  }

  @Test
  void tamperedEvent_isRefusedWith401_recordedInInbox_andPaymentStaysPending() throws Exception {
    String paymentId = create(700, "USD", "c1").path("payment").path("paymentId").asText();
    String intent = stripe.intentId(paymentId);
    // The event Stripe signed when the intent was created, turned into a "succeeded" one.
    StripeWebhookEvent createdEvent =
        stripe.sentEvents().stream()
            .filter(e -> e.type().equals("payment_intent.created"))
            .filter(e -> e.bodyText().contains(intent))
            .findFirst()
            .orElseThrow();
    byte[] tampered =
        createdEvent
            .bodyText()
            .replace("payment_intent.created", "payment_intent.succeeded")
            .getBytes(StandardCharsets.UTF_8);

    HttpResponse<String> answer =
        payrelay.postWebhook(
            "stripe",
            tampered,
            Map.of(
                "Content-Type",
                "application/json; charset=utf-8",
                "Stripe-Signature",
                createdEvent.signature()));

    assertThat(answer.statusCode()).isEqualTo(401);
    assertThat(answer.body()).contains("BAD_SIGNATURE");
    long inboxId = JSON.readTree(answer.body()).path("inboxId").asLong();
    WebhookInboxRecord row = dsl.fetchSingle(WEBHOOK_INBOX, WEBHOOK_INBOX.ID.eq(inboxId));
    assertThat(row.getChannel()).isEqualTo("stripe");
    assertThat(row.getOutcome()).isEqualTo("BAD_SIGNATURE");
    assertThat(row.getSignatureValid()).isFalse();
    assertThat(row.getHttpStatus()).isEqualTo(401);
    assertThat(row.getRawBody()).isEqualTo(tampered);
    assertThat(payrelay.status(paymentId)).isEqualTo("PENDING");
  }

  @Test
  void signedEventAboutAnotherObject_isAcknowledged_andRecordedAsStale() throws Exception {
    String secret = payrelay.wiredConfig().stripe().webhookSecret();
    String eventId = "evt_cus_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
    String body =
        """
        {"id":"%s","object":"event","api_version":"%s","created":%d,"livemode":false,
         "pending_webhooks":1,"type":"customer.created",
         "data":{"object":{"id":"cus_1","object":"customer","email":"a@example.com"}}}
        """
            .formatted(eventId, Stripe.API_VERSION, Instant.now().getEpochSecond());
    String signature =
        Webhook.Signature.generateSignatureHeader(body, secret, Instant.now().getEpochSecond());

    HttpResponse<String> answer =
        payrelay.postWebhook(
            "stripe",
            body.getBytes(StandardCharsets.UTF_8),
            Map.of(
                "Content-Type", "application/json; charset=utf-8", "Stripe-Signature", signature));

    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(JSON.readTree(answer.body()).path("received").asBoolean()).isTrue();
    WebhookInboxRecord row = inboxOf(eventId);
    assertThat(row.getOutcome()).isEqualTo("STALE_STATUS");
    assertThat(row.getSignatureValid()).isTrue();
    assertThat(row.getPaymentId()).isNull();
  }

  @Test
  void anotherIntegrationsPaymentIntent_isNotOurs_acknowledged_whileAnIdOfOursNotYetKnownIsRetried()
      throws Exception {
    HttpResponse<String> foreign = postSucceeded("order-4711");
    WebhookInboxRecord row = latestInbox();
    HttpResponse<String> oursNotYetCommitted = postSucceeded(PaymentIds.mint());

    // Stripe disables an endpoint that keeps failing, which would stop payrelay's own events.
    assertThat(foreign.statusCode()).as(foreign.body()).isEqualTo(200);
    assertThat(oursNotYetCommitted.statusCode()).isEqualTo(503);
    assertThat(latestInbox().getOutcome()).isEqualTo("UNKNOWN_PAYMENT");
    assertThat(row.getOutcome()).isEqualTo("NOT_OURS");
    assertThat(row.getSignatureValid()).isTrue();
    assertThat(
            payrelay
                .stack
                .services()
                .metrics()
                .find("payrelay.webhook.callbacks")
                .tags("channel", "stripe", "outcome", "NOT_OURS")
                .counter()
                .count())
        .isGreaterThanOrEqualTo(1);
  }

  private static HttpResponse<String> postSucceeded(String paymentId) throws Exception {
    String secret = payrelay.wiredConfig().stripe().webhookSecret();
    String body =
        """
        {"id":"evt_%s","object":"event","api_version":"%s","created":%d,"livemode":false,
         "pending_webhooks":1,"type":"payment_intent.succeeded",
         "data":{"object":{"id":"pi_other_1","object":"payment_intent","amount":500,
                           "amount_received":500,"currency":"usd","status":"succeeded",
                           "metadata":{"payment_id":"%s"}}}}
        """
            .formatted(
                UUID.randomUUID().toString().replace("-", ""),
                Stripe.API_VERSION,
                Instant.now().getEpochSecond(),
                paymentId);
    String signature =
        Webhook.Signature.generateSignatureHeader(body, secret, Instant.now().getEpochSecond());
    return payrelay.postWebhook(
        "stripe",
        body.getBytes(StandardCharsets.UTF_8),
        Map.of("Content-Type", "application/json; charset=utf-8", "Stripe-Signature", signature));
  }

  private static WebhookInboxRecord latestInbox() {
    return dsl.selectFrom(WEBHOOK_INBOX)
        .where(WEBHOOK_INBOX.CHANNEL.eq("stripe"))
        .orderBy(WEBHOOK_INBOX.ID.desc())
        .limit(1)
        .fetchSingle();
  }

  @Test
  void callbackWithAnotherContentType_isRefusedWith415() throws Exception {
    HttpResponse<String> answer =
        payrelay.postWebhook(
            "stripe",
            "a=b".getBytes(StandardCharsets.UTF_8),
            Map.of("Content-Type", "application/x-www-form-urlencoded"));

    assertThat(answer.statusCode()).isEqualTo(415);
  }

  private static JsonNode create(long amountMinor, String currency, String... courses)
      throws Exception {
    return payrelay.createPaymentAt(
        "stripe", "t1", "o-" + UUID.randomUUID(), amountMinor, currency, courses);
  }

  private static WebhookInboxRecord inboxOf(String notificationId) {
    return dsl.fetchSingle(
        WEBHOOK_INBOX,
        WEBHOOK_INBOX.CHANNEL.eq("stripe").and(WEBHOOK_INBOX.NOTIFICATION_ID.eq(notificationId)));
  }
}

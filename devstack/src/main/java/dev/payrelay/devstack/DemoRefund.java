package dev.payrelay.devstack;

import com.fasterxml.jackson.databind.JsonNode;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.GetResponse;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;
import java.util.function.Predicate;

/**
 * The refund trail of {@link Demo#withRefund} on a payment whose payment trail was seen: the
 * payment refunded in full ({@code POST /v1/payments/{id}/refunds}, operate role, an {@code
 * Idempotency-Key} of the payment's), then each step awaited in order and printed by {@link
 * DemoTrail}. The first step not seen in time, or a refund FAILED by the channel, ends the trail
 * with one {@code FAILED: step "<step>" not seen …} line that names the step.
 */
final class DemoRefund {

  /** The steps, in the order they are awaited; their names are part of the demo's output. */
  static final String REQUESTED = "refund requested";

  static final String AT_CHANNEL = "refunded at the channel";
  static final String SUCCEEDED = "refund SUCCEEDED";
  static final String PAYMENT_REFUNDED = "payment REFUNDED";
  static final String EVENT_SENT = "PaymentRefunded SENT";
  static final String ON_QUEUE = "PaymentRefunded on the queue";
  static final String REVOKED = "grants revoked";

  /** The AMQP {@code type} of the refund's message: payloads do not carry their event type. */
  private static final String EVENT_TYPE = "PaymentRefunded";

  private static final long POLL_MILLIS = 200;

  private final DemoApi api;
  private final PrintStream out;
  private final Demo.RefundWitness witness;

  DemoRefund(DemoApi api, PrintStream out, Demo.RefundWitness witness) {
    this.api = api;
    this.out = out;
    this.witness = witness;
  }

  /**
   * Refunds {@code payment} (the API's payment row, PAID) in full and awaits its trail.
   *
   * @param payUrl the payment's pay URL, for the witness
   * @param channel a channel whose {@code queue} is bound to the exchange for {@code payment.#}
   * @param timeout how long the whole refund trail may take
   * @return true only when every step was seen within {@code timeout}
   */
  boolean run(JsonNode payment, String payUrl, Channel channel, String queue, Duration timeout)
      throws Exception {
    Instant deadline = Instant.now().plus(timeout);
    String paymentId = payment.path("paymentId").asText();
    JsonNode refund;
    try {
      refund = request(paymentId, payment.path("amount").path("minorUnits").asLong());
    } catch (IllegalStateException refused) {
      return failed(REQUESTED, refused.getMessage());
    }
    DemoTrail.refund(out, refund);
    Steps steps = new Steps(refund, timeout, deadline);
    String refundNo = refund.path("refundNo").asText();
    String atChannel = steps.await(AT_CHANNEL, () -> witness.refunded(paymentId, payUrl, refundNo));
    if (atChannel == null) {
      return false;
    }
    out.println(atChannel);
    JsonNode succeeded = steps.await(SUCCEEDED, () -> steps.refundIn("SUCCEEDED"));
    if (succeeded == null) {
      return false;
    }
    DemoTrail.refunded(out, succeeded);
    return after(steps, paymentId, channel, queue);
  }

  /** The steps after SUCCEEDED: the payment, its event, the message and the revoked grants. */
  private boolean after(Steps steps, String paymentId, Channel channel, String queue)
      throws Exception {
    Duration timeout = steps.timeout;
    JsonNode refunded = steps.await(PAYMENT_REFUNDED, () -> trailWhen(paymentId, t -> true));
    if (refunded == null) {
      return false;
    }
    DemoTrail.payment(out, refunded.path("payment"));
    JsonNode sent = steps.await(EVENT_SENT, () -> trailWhen(paymentId, t -> sentEvent(t) != null));
    if (sent == null) {
      return false;
    }
    JsonNode event = sentEvent(sent);
    DemoTrail.event(out, event);
    String eventId = event.path("eventId").asText();
    GetResponse message =
        Demo.awaitMessage(
            channel,
            queue,
            p -> EVENT_TYPE.equals(p.getType()) && eventId.equals(p.getMessageId()),
            steps.deadline);
    if (message == null) {
      return failed(
          ON_QUEUE,
          "no message of type %s with message_id %s on queue %s within %d s"
              .formatted(EVENT_TYPE, eventId, queue, timeout.toSeconds()));
    }
    DemoTrail.message(out, queue, message);
    JsonNode revoked = steps.await(REVOKED, () -> trailWhen(paymentId, DemoRefund::allRevoked));
    if (revoked == null) {
      return false;
    }
    Instant lastRevoked = DemoTrail.revocations(out, revoked.path("entitlements"));
    out.printf(
        "OK: refund→SUCCEEDED→grants revoked in %d ms (database clock: refund created_at → last"
            + " revoked_at)%n",
        Duration.between(steps.createdAt, lastRevoked).toMillis());
    return true;
  }

  private JsonNode request(String paymentId, long amountMinor) throws Exception {
    return api.post(
        api.api("/v1/payments/" + paymentId + "/refunds"),
        "{\"amountMinor\":" + amountMinor + ",\"reason\":\"payrelay demo --refund\"}",
        "demo-refund-" + paymentId);
  }

  /** The payment's trail once it is REFUNDED and {@code when} holds, else null. */
  private JsonNode trailWhen(String paymentId, Predicate<JsonNode> when) throws Exception {
    JsonNode trail = api.payment(paymentId);
    boolean refunded = "REFUNDED".equals(trail.path("payment").path("status").asText());
    return refunded && when.test(trail) ? trail : null;
  }

  /** The trail's PaymentRefunded event once SENT, else null. */
  private static JsonNode sentEvent(JsonNode trail) {
    for (JsonNode e : trail.path("events")) {
      if (EVENT_TYPE.equals(e.path("eventType").asText())
          && "SENT".equals(e.path("status").asText())) {
        return e;
      }
    }
    return null;
  }

  /** Whether the purchase has grants and every one of them is revoked. */
  private static boolean allRevoked(JsonNode trail) {
    JsonNode grants = trail.path("entitlements");
    boolean all = !grants.isEmpty();
    for (JsonNode g : grants) {
      all &= g.path("revokedAt").isTextual();
    }
    return all;
  }

  /** Prints the step's FAILED line; returns false. */
  private boolean failed(String step, String why) {
    out.printf("FAILED: step \"%s\" not seen: %s%n", step, why);
    return false;
  }

  /** The awaited steps of one refund, sharing its deadline. */
  private final class Steps {
    private final String refundId;
    private final Duration timeout;
    private final Instant deadline;
    private final Instant createdAt;

    /** The steps of {@code refund} (the API's refund row as requested). */
    Steps(JsonNode refund, Duration timeout, Instant deadline) {
      this.refundId = refund.path("refundId").asText();
      this.timeout = timeout;
      this.deadline = deadline;
      this.createdAt = Instant.parse(refund.path("createdAt").asText());
    }

    /**
     * Polls {@code probe} until it answers non-null or the deadline passes; a refund FAILED in the
     * ledger ends the wait at once, as nothing after it can come.
     *
     * @return the probe's answer, or null after printing the step's FAILED line
     */
    <T> T await(String step, Callable<T> probe) throws Exception {
      while (true) {
        T seen = probe.call();
        if (seen != null) {
          return seen;
        }
        JsonNode refund = api.refund(refundId);
        String state = refund.path("state").asText();
        if ("FAILED".equals(state)) {
          failed(
              step,
              "refund %s is FAILED (the channel's reason: %s)"
                  .formatted(refundId, refund.path("failureReason").asText()));
          return null;
        }
        if (!Instant.now().isBefore(deadline)) {
          failed(
              step,
              "not within %d s; refund %s is %s".formatted(timeout.toSeconds(), refundId, state));
          return null;
        }
        Thread.sleep(POLL_MILLIS);
      }
    }

    /** The refund's row when it is in {@code state}, else null. */
    JsonNode refundIn(String state) throws Exception {
      JsonNode refund = api.refund(refundId);
      return state.equals(refund.path("state").asText()) ? refund : null;
    }
  }
}

package dev.payrelay.simulators.stripe;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.payrelay.simulators.RefundMode;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the refunds {@code POST /v1/refunds} asks for and reports them in webhooks as each
 * PaymentIntent's {@link RefundMode} says: a succeeded refund in {@code charge.refunded} (the
 * charge with its {@code refunds} list), a failed one in {@code refund.failed}; TWICE adds a {@code
 * refund.updated} of the same refund; DELAY sends after the delay on a background thread; DROP
 * sends nothing. The mode's answer delay is served by the caller, after the refund exists.
 */
final class StripeRefundDesk {

  private static final Logger log = LoggerFactory.getLogger(StripeRefundDesk.class);

  private final SimulatedStripe stripe;
  private final BiConsumer<String, ObjectNode> send;
  private volatile RefundMode global = RefundMode.NORMAL;
  private final Map<String, RefundMode> perIntent = new ConcurrentHashMap<>();

  /**
   * @param send signs and delivers one event of a type about an object
   */
  StripeRefundDesk(SimulatedStripe stripe, BiConsumer<String, ObjectNode> send) {
    this.stripe = stripe;
    this.send = send;
  }

  void setMode(RefundMode mode) {
    global = mode;
  }

  void setMode(String intentId, RefundMode mode) {
    perIntent.put(intentId, mode);
  }

  /** The mode in force for an intent's refunds: its own if set, else the global one. */
  RefundMode mode(String intentId) {
    return intentId == null ? global : perIntent.getOrDefault(intentId, global);
  }

  /**
   * Creates the refund (see {@link SimulatedStripe#createRefund}) and reports it.
   *
   * @return the Refund as {@code POST /v1/refunds} answers it
   */
  ObjectNode create(Map<String, String> form) {
    RefundMode mode = mode(form.get("payment_intent"));
    ObjectNode refund = stripe.createRefund(form, mode.fail());
    report(refund, mode);
    return refund;
  }

  private void report(ObjectNode refund, RefundMode mode) {
    switch (mode.callbacks()) {
      case DELIVER -> first(refund);
      case TWICE -> {
        first(refund);
        send.accept("refund.updated", refund);
      }
      case DELAY ->
          Thread.ofVirtual()
              .name("stripe-refund-webhook")
              .start(
                  () -> {
                    try {
                      Thread.sleep(mode.callbackDelay());
                      first(refund);
                    } catch (InterruptedException e) {
                      Thread.currentThread().interrupt();
                    }
                  });
      case DROP -> log.info("refund webhook dropped by mode refund={}", refund.get("id").asText());
    }
  }

  private void first(ObjectNode refund) {
    if ("failed".equals(refund.get("status").asText())) {
      send.accept("refund.failed", refund);
    } else {
      send.accept("charge.refunded", stripe.chargeOf(refund));
    }
  }

  /** Sleeps an intent's answer delay; the refund already exists. */
  void answerDelay(String intentId) {
    Duration delay = mode(intentId).answerDelay();
    if (delay.isZero()) {
      return;
    }
    try {
      Thread.sleep(delay);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

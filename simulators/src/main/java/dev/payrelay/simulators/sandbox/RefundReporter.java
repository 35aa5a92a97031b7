package dev.payrelay.simulators.sandbox;

import dev.payrelay.simulators.RefundMode;
import java.net.URI;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reports a new refund to its payment's notify_url per {@link RefundMode.Callbacks}: at once, late,
 * not at all, or twice (two notifications of one refund, as a channel's later status notification
 * repeats an earlier one's refund under a new notification id).
 */
final class RefundReporter {

  private static final Logger log = LoggerFactory.getLogger(RefundReporter.class);

  private final SimulatedPayments payments;
  private final CallbackDeliverer deliverer;

  RefundReporter(SimulatedPayments payments, CallbackDeliverer deliverer) {
    this.payments = payments;
    this.deliverer = deliverer;
  }

  /** Delivers, delays, drops or doubles the refund's notification. */
  void report(SimulatedRefund refund, RefundMode mode) {
    // A refund exists only for a registered payment, and payments are never removed.
    URI notifyUrl = payments.find(refund.paymentId()).orElseThrow().notifyUrl();
    switch (mode.callbacks()) {
      case DELIVER -> deliverer.deliver(notifyUrl, refund.notification(notificationId()));
      case TWICE -> {
        deliverer.deliver(notifyUrl, refund.notification(notificationId()));
        deliverer.deliver(notifyUrl, refund.notification(notificationId()));
      }
      case DELAY ->
          deliverer.deliverAfter(
              notifyUrl, refund.notification(notificationId()), mode.callbackDelay());
      case DROP -> log.info("refund callback dropped by mode refund={}", refund.refundId());
    }
  }

  private static String notificationId() {
    return "ntf_" + UUID.randomUUID().toString().replace("-", "");
  }
}

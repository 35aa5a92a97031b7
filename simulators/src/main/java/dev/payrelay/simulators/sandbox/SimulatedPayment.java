package dev.payrelay.simulators.sandbox;

import dev.payrelay.channels.sandbox.SandboxNotification;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import java.net.URI;
import java.time.Instant;

/**
 * One payment as the sandbox simulator holds it. Immutable; the simulator replaces it on each
 * transition (PENDING → PAID or PENDING → CLOSED; both final).
 *
 * @param paymentId the payment id the merchant registered
 * @param merchantId the merchant it was registered for
 * @param amount the registered amount due, in minor units
 * @param description the line shown to the buyer; may be empty
 * @param expiresAt after this instant it can no longer be paid and reads as CLOSED
 * @param notifyUrl where callbacks for it are posted
 * @param status PENDING, PAID or CLOSED (never NOT_FOUND)
 * @param notification the notification sent when it was paid, re-sent unchanged on a repeated pay;
 *     null unless PAID
 */
public record SimulatedPayment(
    String paymentId,
    String merchantId,
    Money amount,
    String description,
    Instant expiresAt,
    URI notifyUrl,
    ChannelPaymentStatus status,
    SandboxNotification notification) {

  /** The sandbox transaction that paid it, or null unless PAID. */
  public String channelTxnId() {
    return notification == null ? null : notification.channelTxnId();
  }

  /** When the money moved, or null unless PAID. */
  public Instant paidAt() {
    return notification == null ? null : notification.paidAt();
  }

  /**
   * The amount the sandbox reports, in minor units: once PAID the notification's (which a test may
   * have overridden to provoke a mismatch), else the registered amount.
   */
  public Money reportedAmount() {
    // The simulator only builds notifications from valid Money, so this parse cannot fail.
    return notification == null
        ? amount
        : Money.parse(notification.amount(), notification.currency());
  }

  /** Whether it is PENDING but past {@code expiresAt} at {@code now}. */
  public boolean expiredAt(Instant now) {
    return status == ChannelPaymentStatus.PENDING && now.isAfter(expiresAt);
  }

  /** This payment, PAID by {@code paidBy}. */
  SimulatedPayment paid(SandboxNotification paidBy) {
    return new SimulatedPayment(
        paymentId,
        merchantId,
        amount,
        description,
        expiresAt,
        notifyUrl,
        ChannelPaymentStatus.PAID,
        paidBy);
  }

  /** This payment, CLOSED. */
  SimulatedPayment closed() {
    return new SimulatedPayment(
        paymentId,
        merchantId,
        amount,
        description,
        expiresAt,
        notifyUrl,
        ChannelPaymentStatus.CLOSED,
        null);
  }
}

package dev.payrelay.domain.channel;

import dev.payrelay.domain.PaymentIds;
import dev.payrelay.domain.PaymentTransition;

/**
 * Decides what a verified callback means for our payment: one small total function, so every
 * (payment, callback) pair has exactly one outcome. DESIGN invariant 2: a verified callback that
 * disagrees with our records never overwrites them.
 */
public final class CallbackDecision {

  private CallbackDecision() {}

  /**
   * Judges a callback against our payment row.
   *
   * @param ours our payment, or null if we have none with the callback's payment id
   * @param callback the verified callback
   * @return the outcome; {@link CallbackOutcome#CONFIRMED} only when the payment may be confirmed
   *     ({@link PaymentTransition#CONFIRM}: PENDING) and merchant, amount (minor units) and
   *     currency all match. A {@link ChannelPaymentStatus#REFUNDED} or {@link
   *     ChannelPaymentStatus#DISPUTED} about a payment of ours (any status of ours: money moved
   *     either way) is {@link CallbackOutcome#REFUNDED} / {@link CallbackOutcome#DISPUTED}, an
   *     exception for review. Without a payment of ours: {@link CallbackOutcome#STALE_STATUS}
   *     (acknowledged) when the callback names no payment id or reports {@link
   *     ChannelPaymentStatus#UNKNOWN}, since no retry can make it about a payment of ours (e.g. a
   *     Stripe {@code customer.created} event, an Alipay {@code notify_type} other than {@code
   *     trade_status_sync}); {@link CallbackOutcome#NOT_OURS} (acknowledged) when the id is not of
   *     the form payrelay mints ({@link PaymentIds#isOurs}); otherwise {@link
   *     CallbackOutcome#UNKNOWN_PAYMENT}, which the channel retries because the payment may not be
   *     committed yet. A callback for which {@link #decidesRefunds} holds is not decided here;
   *     asked anyway, its status decides as above
   */
  public static CallbackOutcome decide(PaymentSnapshot ours, VerifiedCallback callback) {
    if (ours == null) {
      if (callback.paymentId() == null || callback.status() == ChannelPaymentStatus.UNKNOWN) {
        return CallbackOutcome.STALE_STATUS;
      }
      return PaymentIds.isOurs(callback.paymentId())
          ? CallbackOutcome.UNKNOWN_PAYMENT
          : CallbackOutcome.NOT_OURS;
    }
    if (!ours.merchantId().equals(callback.merchantId())) {
      return CallbackOutcome.MERCHANT_MISMATCH;
    }
    switch (callback.status()) {
      case PAID -> {}
      case REFUNDED -> {
        return CallbackOutcome.REFUNDED;
      }
      case DISPUTED -> {
        return CallbackOutcome.DISPUTED;
      }
      default -> {
        return CallbackOutcome.STALE_STATUS;
      }
    }
    // A refunded payment was paid by its transaction: its PAID report again is a duplicate.
    if (ours.status().wasPaid()) {
      return decideAlreadyPaid(ours, callback);
    }
    if (!PaymentTransition.CONFIRM.startsFrom(ours.status())) {
      // Closed or expired: only an operator may reopen it (PaymentTransition.REOPEN_AS_PAID).
      return CallbackOutcome.PAID_AFTER_CLOSE;
    }
    if (!ours.amount().currency().equals(callback.amount().currency())) {
      return CallbackOutcome.CURRENCY_MISMATCH;
    }
    if (ours.amount().minorUnits() != callback.amount().minorUnits()) {
      return CallbackOutcome.AMOUNT_MISMATCH;
    }
    return CallbackOutcome.CONFIRMED;
  }

  /**
   * Whether the callback is decided refund by refund rather than by {@link #decide}: it reports
   * refunds ({@link VerifiedCallback#refunds} not empty) about a payment of ours, paid to our
   * merchant. Each {@link RefundReport} is then applied once, keyed by its channel refund id (issue
   * 28 item 3), whatever payment status the callback names; a refund of a payment we never saw paid
   * is a {@link CallbackOutcome#REFUND_MISMATCH}. A callback naming no payment of ours, or another
   * merchant, is decided by {@link #decide} as any other.
   */
  public static boolean decidesRefunds(PaymentSnapshot ours, VerifiedCallback callback) {
    return ours != null
        && !callback.refunds().isEmpty()
        && ours.merchantId().equals(callback.merchantId());
  }

  private static CallbackOutcome decideAlreadyPaid(PaymentSnapshot ours, VerifiedCallback cb) {
    if (!callbackTxnMatches(ours, cb)) {
      return CallbackOutcome.DOUBLE_PAYMENT;
    }
    if (!ours.amount().currency().equals(cb.amount().currency())) {
      return CallbackOutcome.CURRENCY_MISMATCH;
    }
    return ours.amount().minorUnits() == cb.amount().minorUnits()
        ? CallbackOutcome.DUPLICATE
        : CallbackOutcome.AMOUNT_MISMATCH;
  }

  private static boolean callbackTxnMatches(PaymentSnapshot ours, VerifiedCallback cb) {
    return ours.channelTxnId() != null && ours.channelTxnId().equals(cb.channelTxnId());
  }
}

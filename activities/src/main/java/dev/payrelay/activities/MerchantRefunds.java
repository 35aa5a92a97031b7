package dev.payrelay.activities;

import dev.payrelay.domain.channel.ChannelException;
import dev.payrelay.domain.channel.ChannelRefundResult;
import dev.payrelay.domain.channel.ChannelRegistry;
import dev.payrelay.domain.channel.PaymentChannel;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.ledger.refund.RefundChannelQuery;
import dev.payrelay.ledger.refund.RefundRow;

/**
 * A refund's channel: the adapter of the merchant account its payment was created with ({@link
 * ChannelRegistry#forMerchant}, as {@link ChannelActivitiesImpl} queries the payment), and the
 * channel transaction it refunds. Used by the refund workflow's activities and, as the {@link
 * RefundChannelQuery} of {@link dev.payrelay.ledger.refund.RefundResolutions#markFailed}, by its
 * operator desk, so both ask the channel the same way.
 */
public final class MerchantRefunds implements RefundChannelQuery {

  private final ChannelRegistry channels;
  private final PaymentStore payments;

  /** Refunds sent through {@code channels}' merchant accounts, reading {@code payments}. */
  public MerchantRefunds(ChannelRegistry channels, PaymentStore payments) {
    this.channels = channels;
    this.payments = payments;
  }

  /**
   * Asks the channel about the refund by our refund number.
   *
   * @throws io.temporal.failure.ApplicationFailure not retryable when the payment is gone or has no
   *     channel transaction, or its merchant account is not configured
   */
  @Override
  public ChannelRefundResult ask(RefundRow refund) throws ChannelException {
    PaymentRow payment = payment(refund);
    return adapter(payment)
        .queryRefund(payment.paymentId(), txnOf(refund, payment), refund.refundNo());
  }

  /** The refund's payment; a not-retryable activity failure when it is gone. */
  PaymentRow payment(RefundRow refund) {
    return payments
        .find(refund.paymentId())
        .orElseThrow(() -> ActivityFailures.paymentNotFound(refund.paymentId()));
  }

  /** The adapter of the merchant account {@code payment} was created with. */
  PaymentChannel adapter(PaymentRow payment) {
    return MerchantAccounts.adapter(channels, payment.channel(), payment);
  }

  /**
   * The channel transaction the refund takes money from: its own capture when it names one (a
   * second charge), else the payment's.
   */
  static String txnOf(RefundRow refund, PaymentRow payment) {
    String txn = refund.channelTxnId() != null ? refund.channelTxnId() : payment.channelTxnId();
    if (txn == null) {
      throw ActivityFailures.channelRefused(
          "payment " + payment.paymentId() + " has no channel transaction to refund");
    }
    return txn;
  }
}

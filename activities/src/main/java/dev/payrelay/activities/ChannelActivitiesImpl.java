package dev.payrelay.activities;

import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.domain.channel.ChannelException;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.ChannelQueryResult;
import dev.payrelay.domain.channel.ChannelRegistry;
import dev.payrelay.domain.channel.PaymentChannel;
import dev.payrelay.ledger.payment.LedgerResult;
import dev.payrelay.ledger.payment.PaymentLedger;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.workflows.activities.ChannelActivities;
import dev.payrelay.workflows.activities.ChannelCallRequest;
import dev.payrelay.workflows.activities.ChannelStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Channel calls for payment workflows, through the channel adapters. A failed call is a retryable
 * {@code CHANNEL_UNAVAILABLE} (its outcome is unknown) or a non-retryable {@code CHANNEL_REFUSED};
 * never an answer. The ledger is asked first: a payment it already holds PAID, CLOSED or EXPIRED is
 * never queried or closed at the channel (DESIGN invariant 11); the answer says so instead. An
 * answer that money moved and went back ({@link ChannelPaymentStatus#REFUNDED}, {@link
 * ChannelPaymentStatus#DISPUTED}) is recorded through the ledger as that exception for review (one
 * per payment and channel transaction, however often the channel repeats it) before it is returned.
 */
public final class ChannelActivitiesImpl implements ChannelActivities {

  private static final Logger log = LoggerFactory.getLogger(ChannelActivitiesImpl.class);

  private final ChannelRegistry channels;
  private final PaymentStore payments;
  private final PaymentLedger ledger;

  /**
   * Activities over the channels' merchant accounts (a payment is queried and closed through the
   * account it was created with, {@link ChannelRegistry#forMerchant}), guarded by the ledger's
   * {@code payments}; refund and dispute answers are recorded through {@code ledger}.
   */
  public ChannelActivitiesImpl(
      ChannelRegistry channels, PaymentStore payments, PaymentLedger ledger) {
    this.payments = payments;
    this.ledger = ledger;
    this.channels = channels;
  }

  @Override
  public ChannelStatus query(ChannelCallRequest request) {
    return call(request, "query");
  }

  @Override
  public ChannelStatus close(ChannelCallRequest request) {
    return call(request, "close");
  }

  private ChannelStatus call(ChannelCallRequest request, String operation) {
    PaymentRow payment =
        payments
            .find(request.paymentId())
            .orElseThrow(() -> ActivityFailures.paymentNotFound(request.paymentId()));
    PaymentStatus ours = payment.status();
    if (ours != PaymentStatus.PENDING) {
      log.info(
          "payment {}: no channel {}: the ledger already holds it {}",
          request.paymentId(),
          operation,
          ours);
      return ChannelStatus.settledInLedger(ours.name());
    }
    ChannelQueryResult r = ask(adapter(request.channel(), payment), operation, request.paymentId());
    log.info(
        "payment {}: channel {} answered {} {}",
        request.paymentId(),
        operation,
        r.status(),
        r.channelTxnId());
    recordMovedMoney(payment, r);
    return new ChannelStatus(
        r.status().name(),
        r.channelTxnId(),
        r.amount() == null ? null : r.amount().minorUnits(),
        r.amount() == null ? null : r.amount().currencyCode());
  }

  private PaymentChannel adapter(String channel, PaymentRow payment) {
    return MerchantAccounts.adapter(channels, channel, payment);
  }

  /**
   * The channel's answer to {@code operation}; a failed call as {@link ActivityFailures#channel}.
   */
  private static ChannelQueryResult ask(
      PaymentChannel channel, String operation, String paymentId) {
    try {
      return "close".equals(operation) ? channel.close(paymentId) : channel.query(paymentId);
    } catch (ChannelException e) {
      throw ActivityFailures.channel(e);
    }
  }

  /**
   * Records a REFUNDED or DISPUTED answer as the ledger's exception of that kind, as a callback
   * saying so would be: the merchant is the payment's own (our query to our account).
   */
  private void recordMovedMoney(PaymentRow payment, ChannelQueryResult r) {
    if (r.status() != ChannelPaymentStatus.REFUNDED && r.status() != ChannelPaymentStatus.DISPUTED
        || r.amount() == null) {
      return;
    }
    LedgerResult recorded = ledger.applyAnswer(payment, r, PaymentLedger.QUERY);
    log.warn(
        "payment {}: channel answered {}; ledger outcome {}",
        payment.paymentId(),
        r.status(),
        recorded.outcome());
  }
}

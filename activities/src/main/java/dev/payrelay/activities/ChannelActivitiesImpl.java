package dev.payrelay.activities;

import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.domain.channel.ChannelAccount;
import dev.payrelay.domain.channel.ChannelException;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.ChannelQueryResult;
import dev.payrelay.domain.channel.ChannelRegistry;
import dev.payrelay.domain.channel.PaymentChannel;
import dev.payrelay.domain.channel.VerifiedCallback;
import dev.payrelay.ledger.payment.LedgerResult;
import dev.payrelay.ledger.payment.PaymentLedger;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.workflows.activities.ChannelActivities;
import dev.payrelay.workflows.activities.ChannelCallRequest;
import dev.payrelay.workflows.activities.ChannelStatus;
import io.temporal.failure.ApplicationFailure;
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
            .orElseThrow(
                () ->
                    ApplicationFailure.newNonRetryableFailure(
                        "no payment " + request.paymentId(), "PAYMENT_NOT_FOUND"));
    PaymentStatus ours = payment.status();
    if (ours != PaymentStatus.PENDING) {
      log.info(
          "payment {}: no channel {}: the ledger already holds it {}",
          request.paymentId(),
          operation,
          ours);
      return ChannelStatus.settledInLedger(ours.name());
    }
    PaymentChannel channel =
        channels
            .forMerchant(request.channel(), payment.merchantId())
            .map(ChannelAccount::adapter)
            .orElseThrow(
                () ->
                    ApplicationFailure.newNonRetryableFailure(
                        "no merchant account "
                            + payment.merchantId()
                            + " at channel "
                            + request.channel()
                            + " is configured",
                        "CHANNEL_REFUSED"));
    try {
      ChannelQueryResult r =
          "close".equals(operation)
              ? channel.close(request.paymentId())
              : channel.query(request.paymentId());
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
    } catch (ChannelException e) {
      String type = e.retryable() ? "CHANNEL_UNAVAILABLE" : "CHANNEL_REFUSED";
      throw e.retryable()
          ? ApplicationFailure.newFailureWithCause(e.getMessage(), type, e)
          : ApplicationFailure.newNonRetryableFailureWithCause(e.getMessage(), type, e);
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
    LedgerResult recorded =
        ledger.apply(
            new VerifiedCallback(
                "query:" + payment.paymentId(),
                payment.merchantId(),
                payment.paymentId(),
                r.channelTxnId(),
                r.amount(),
                r.status()),
            null,
            PaymentLedger.QUERY);
    log.warn(
        "payment {}: channel answered {}; ledger outcome {}",
        payment.paymentId(),
        r.status(),
        recorded.outcome());
  }
}

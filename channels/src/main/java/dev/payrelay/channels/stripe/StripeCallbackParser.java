package dev.payrelay.channels.stripe;

import com.stripe.exception.EventDataObjectDeserializationException;
import com.stripe.model.Charge;
import com.stripe.model.Dispute;
import com.stripe.model.Event;
import com.stripe.model.PaymentIntent;
import com.stripe.model.Refund;
import com.stripe.model.StripeObject;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.CallbackRejectedException;
import dev.payrelay.domain.channel.CallbackRejectedException.Reason;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.ChannelRefundStatus;
import dev.payrelay.domain.channel.RefundReport;
import dev.payrelay.domain.channel.VerifiedCallback;
import java.util.List;

/**
 * Turns a verified Stripe {@link Event} into a {@link VerifiedCallback}.
 *
 * <p>The notification id is the event id ({@code evt_...}, the same on Stripe's retries); the
 * merchant is our account (the signing secret proved it); the channel transaction is the
 * PaymentIntent ({@code pi_...}). Our payment id is the PaymentIntent's {@code
 * metadata.payment_id}: read directly from a {@code payment_intent.*} event, and looked up through
 * {@link IntentLookup} for {@code charge.*} events (a Charge or Dispute names its PaymentIntent).
 * The amount is {@code amount_received} for a succeeded intent, {@code amount_refunded} for a
 * refunded charge, else {@code amount}. Events about other objects parse to UNKNOWN with no
 * payment, transaction or amount.
 *
 * <p>Refunds (issue 28 item 3): a {@code charge.refunded} event also reports each Refund in the
 * charge's {@code refunds} list (when the event carries it); a {@code refund.*} event ({@code
 * refund.created}, {@code refund.updated}, {@code refund.failed}) is a callback about refunds only:
 * status UNKNOWN, the refund's amount, the intent as transaction, and the Refund. Each Refund
 * becomes a {@link RefundReport} identified by its {@code re_…} id, with our number from {@code
 * metadata.refund_no} (null for a refund made in the dashboard).
 */
public final class StripeCallbackParser {

  /** Finds our payment id on a PaymentIntent that a Charge or Dispute names. */
  interface IntentLookup {
    /**
     * @return our payment id from the intent's metadata, or null if it carries none
     * @throws CallbackRejectedException if Stripe cannot be asked; Stripe retries the webhook
     */
    String paymentIdOf(String paymentIntentId) throws CallbackRejectedException;
  }

  /** The PaymentIntent metadata key that carries our payment id. */
  public static final String PAYMENT_ID_KEY = "payment_id";

  /** The Refund metadata key that carries our refund number (also the refund's idempotency key). */
  public static final String REFUND_NO_KEY = "refund_no";

  private final String accountId;
  private final IntentLookup lookup;

  StripeCallbackParser(String accountId, IntentLookup lookup) {
    this.accountId = accountId;
    this.lookup = lookup;
  }

  /**
   * @throws CallbackRejectedException MALFORMED when the event's object cannot be read or its
   *     amount or currency is missing or not exactly convertible to minor units
   */
  VerifiedCallback parse(Event event) throws CallbackRejectedException {
    ChannelPaymentStatus status = StripeStatuses.ofEventType(event.getType());
    StripeObject object = dataObject(event);
    if (object == null) {
      throw new CallbackRejectedException(
          Reason.MALFORMED, "event " + event.getId() + " has no data.object");
    }
    try {
      return switch (object) {
        case PaymentIntent pi -> ofIntent(event, pi, status);
        case Charge charge -> ofCharge(event, charge, status);
        case Dispute dispute ->
            callback(
                event,
                lookup.paymentIdOf(dispute.getPaymentIntent()),
                dispute.getPaymentIntent(),
                StripeAmounts.toMoney(dispute.getAmount(), dispute.getCurrency()),
                status,
                List.of());
        case Refund refund -> ofRefund(event, refund);
        default -> callback(event, null, null, null, ChannelPaymentStatus.UNKNOWN, List.of());
      };
    } catch (IllegalArgumentException | ArithmeticException e) {
      throw new CallbackRejectedException(
          Reason.MALFORMED, "event " + event.getId() + ": " + e.getMessage(), e);
    }
  }

  /** A {@code payment_intent.*} event: our payment id is in the intent's own metadata. */
  private VerifiedCallback ofIntent(Event event, PaymentIntent pi, ChannelPaymentStatus status) {
    return callback(
        event,
        pi.getMetadata() == null ? null : pi.getMetadata().get(PAYMENT_ID_KEY),
        pi.getId(),
        StripeAmounts.toMoney(
            status == ChannelPaymentStatus.PAID ? pi.getAmountReceived() : pi.getAmount(),
            pi.getCurrency()),
        status,
        List.of());
  }

  /** A {@code charge.*} event: our payment id is on the PaymentIntent the charge names. */
  private VerifiedCallback ofCharge(Event event, Charge charge, ChannelPaymentStatus status)
      throws CallbackRejectedException {
    return callback(
        event,
        lookup.paymentIdOf(charge.getPaymentIntent()),
        charge.getPaymentIntent(),
        StripeAmounts.toMoney(
            status == ChannelPaymentStatus.REFUNDED
                ? charge.getAmountRefunded()
                : charge.getAmount(),
            charge.getCurrency()),
        status,
        charge.getRefunds() == null || charge.getRefunds().getData() == null
            ? List.of()
            : charge.getRefunds().getData().stream().map(StripeCallbackParser::report).toList());
  }

  /**
   * A {@code refund.*} event: our payment id from the refund's own metadata when we made it, else
   * (a dashboard refund) from the PaymentIntent it names.
   */
  private VerifiedCallback ofRefund(Event event, Refund refund) throws CallbackRejectedException {
    String paymentId =
        refund.getMetadata() == null ? null : refund.getMetadata().get(PAYMENT_ID_KEY);
    return callback(
        event,
        paymentId != null ? paymentId : lookup.paymentIdOf(refund.getPaymentIntent()),
        refund.getPaymentIntent(),
        StripeAmounts.toMoney(refund.getAmount(), refund.getCurrency()),
        ChannelPaymentStatus.UNKNOWN,
        List.of(report(refund)));
  }

  /** A Refund as a callback reports it. */
  private static RefundReport report(Refund refund) {
    ChannelRefundStatus status = StripeStatuses.ofRefundStatus(refund.getStatus());
    return new RefundReport(
        refund.getId(),
        refund.getMetadata() == null ? null : refund.getMetadata().get(REFUND_NO_KEY),
        StripeAmounts.toMoney(refund.getAmount(), refund.getCurrency()),
        status,
        status == ChannelRefundStatus.FAILED ? StripeRefunds.failureReason(refund) : null);
  }

  private VerifiedCallback callback(
      Event event,
      String paymentId,
      String txnId,
      Money amount,
      ChannelPaymentStatus status,
      List<RefundReport> refunds) {
    return new VerifiedCallback(
        event.getId(), accountId, paymentId, txnId, amount, status, refunds);
  }

  // getObject() is empty when the event's api_version differs from the SDK's; the fields read
  // here (ids, amounts, currency, metadata, status) are stable across versions, so fall back.
  private static StripeObject dataObject(Event event) throws CallbackRejectedException {
    if (event.getData() == null || event.getType() == null || event.getId() == null) {
      throw new CallbackRejectedException(Reason.MALFORMED, "event without id, type or data");
    }
    try {
      var deserializer = event.getDataObjectDeserializer();
      return deserializer.getObject().isPresent()
          ? deserializer.getObject().get()
          : deserializer.deserializeUnsafe();
    } catch (EventDataObjectDeserializationException | RuntimeException e) {
      throw new CallbackRejectedException(
          Reason.MALFORMED, "event " + event.getId() + ": unreadable data.object", e);
    }
  }
}

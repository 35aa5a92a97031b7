package dev.payrelay.channels.stripe;

import static dev.payrelay.domain.channel.ChannelPaymentStatus.CLOSED;
import static dev.payrelay.domain.channel.ChannelPaymentStatus.DISPUTED;
import static dev.payrelay.domain.channel.ChannelPaymentStatus.PAID;
import static dev.payrelay.domain.channel.ChannelPaymentStatus.PENDING;
import static dev.payrelay.domain.channel.ChannelPaymentStatus.REFUNDED;

import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.ChannelRefundStatus;
import java.util.Map;

/**
 * The one place Stripe's words become {@link ChannelPaymentStatus}: PaymentIntent statuses (query,
 * close) and webhook event types (callbacks); and Refund statuses become {@link
 * ChannelRefundStatus}. A payment word not in these tables is {@link ChannelPaymentStatus#UNKNOWN}:
 * recorded and acknowledged, never believed; a refund word not in them is {@link
 * ChannelRefundStatus#PENDING}.
 */
public final class StripeStatuses {

  /**
   * PaymentIntent {@code status}, all seven values Stripe documents (stripe-java {@code
   * PaymentIntent#getStatus}; https://docs.stripe.com/payments/paymentintents/lifecycle). Only
   * {@code succeeded} means money moved; {@code requires_capture} is an authorisation, not yet
   * captured; {@code canceled} can no longer be paid.
   */
  static final Map<String, ChannelPaymentStatus> INTENT_STATUSES =
      Map.of(
          "requires_payment_method", PENDING,
          "requires_confirmation", PENDING,
          "requires_action", PENDING,
          "processing", PENDING,
          "requires_capture", PENDING,
          "canceled", CLOSED,
          "succeeded", PAID);

  /**
   * Webhook event types we act on (https://docs.stripe.com/api/events/types). {@code
   * payment_intent.payment_failed} leaves the intent in {@code requires_payment_method}: the buyer
   * may still pay, so PENDING. {@code charge.refunded} is sent for full and partial refunds.
   */
  static final Map<String, ChannelPaymentStatus> EVENT_TYPES =
      Map.ofEntries(
          Map.entry("payment_intent.created", PENDING),
          Map.entry("payment_intent.processing", PENDING),
          Map.entry("payment_intent.requires_action", PENDING),
          Map.entry("payment_intent.requires_payment_method", PENDING),
          Map.entry("payment_intent.payment_failed", PENDING),
          Map.entry("payment_intent.amount_capturable_updated", PENDING),
          Map.entry("payment_intent.succeeded", PAID),
          Map.entry("payment_intent.canceled", CLOSED),
          Map.entry("charge.refunded", REFUNDED),
          Map.entry("charge.dispute.created", DISPUTED));

  /**
   * Refund {@code status} (https://docs.stripe.com/api/refunds/object#refund_object-status): {@code
   * pending} and {@code requires_action} are not finished; {@code failed} and {@code canceled}
   * moved no money. An undocumented status reads PENDING: nothing is applied on it, and a query
   * asks again.
   */
  static final Map<String, ChannelRefundStatus> REFUND_STATUSES =
      Map.of(
          "pending", ChannelRefundStatus.PENDING,
          "requires_action", ChannelRefundStatus.PENDING,
          "succeeded", ChannelRefundStatus.SUCCEEDED,
          "failed", ChannelRefundStatus.FAILED,
          "canceled", ChannelRefundStatus.FAILED);

  private StripeStatuses() {}

  /** Our status for a Refund {@code status}; PENDING for null or an undocumented one. */
  public static ChannelRefundStatus ofRefundStatus(String status) {
    return status == null
        ? ChannelRefundStatus.PENDING
        : REFUND_STATUSES.getOrDefault(status, ChannelRefundStatus.PENDING);
  }

  /** Our status for a PaymentIntent {@code status}; UNKNOWN for null or an undocumented one. */
  public static ChannelPaymentStatus ofIntentStatus(String status) {
    return status == null
        ? ChannelPaymentStatus.UNKNOWN
        : INTENT_STATUSES.getOrDefault(status, ChannelPaymentStatus.UNKNOWN);
  }

  /** Our status for a webhook event {@code type}; UNKNOWN for null or a type not listed above. */
  public static ChannelPaymentStatus ofEventType(String type) {
    return type == null
        ? ChannelPaymentStatus.UNKNOWN
        : EVENT_TYPES.getOrDefault(type, ChannelPaymentStatus.UNKNOWN);
  }
}

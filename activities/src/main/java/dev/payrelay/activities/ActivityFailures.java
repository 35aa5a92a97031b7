package dev.payrelay.activities;

import dev.payrelay.domain.channel.ChannelException;
import dev.payrelay.domain.failure.ChannelFailure;
import dev.payrelay.domain.failure.PaymentFailure;
import dev.payrelay.domain.failure.RefundFailure;
import io.temporal.failure.ApplicationFailure;

/**
 * The {@code ApplicationFailure}s that more than one activity throws, each typed by its enum in
 * {@code domain.failure}: workflows and retry policies match on these types, so each is built in
 * one place.
 */
final class ActivityFailures {

  private ActivityFailures() {}

  /** A non-retryable {@link PaymentFailure#PAYMENT_NOT_FOUND}: {@code no payment <id>}. */
  static ApplicationFailure paymentNotFound(String paymentId) {
    return ApplicationFailure.newNonRetryableFailure(
        "no payment " + paymentId, PaymentFailure.PAYMENT_NOT_FOUND.name());
  }

  /** A non-retryable {@link RefundFailure#REFUND_NOT_FOUND}: {@code no refund <id>}. */
  static ApplicationFailure refundNotFound(String refundId) {
    return ApplicationFailure.newNonRetryableFailure(
        "no refund " + refundId, RefundFailure.REFUND_NOT_FOUND.name());
  }

  /**
   * A failed channel call: retryable {@link ChannelFailure#CHANNEL_UNAVAILABLE} (its outcome
   * unknown) or non-retryable {@link ChannelFailure#CHANNEL_REFUSED}, by {@link
   * ChannelException#retryable()}; the channel's message and the cause kept. The names are also
   * those of {@code ReconciliationFailure}'s channel types, which reconciliation workflows match.
   */
  static ApplicationFailure channel(ChannelException e) {
    return e.retryable()
        ? ApplicationFailure.newFailureWithCause(
            e.getMessage(), ChannelFailure.CHANNEL_UNAVAILABLE.name(), e)
        : ApplicationFailure.newNonRetryableFailureWithCause(
            e.getMessage(), ChannelFailure.CHANNEL_REFUSED.name(), e);
  }

  /** A non-retryable {@link ChannelFailure#CHANNEL_REFUSED} without a channel call. */
  static ApplicationFailure channelRefused(String message) {
    return ApplicationFailure.newNonRetryableFailure(
        message, ChannelFailure.CHANNEL_REFUSED.name());
  }
}

package dev.payrelay.activities;

import dev.payrelay.domain.channel.ChannelException;
import dev.payrelay.domain.channel.PaymentChannel;
import dev.payrelay.domain.channel.StatementPage;
import dev.payrelay.workflows.activities.ReconciliationFailure;
import io.temporal.failure.ApplicationFailure;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/** Channel adapters by name, and the failure types reconciliation reports for them. */
final class ReconciliationChannels {

  private final Map<String, PaymentChannel> byName;

  ReconciliationChannels(List<PaymentChannel> channels) {
    this.byName =
        channels.stream()
            .collect(Collectors.toUnmodifiableMap(PaymentChannel::name, Function.identity()));
  }

  /** The adapter, or a non-retryable {@code UNKNOWN_CHANNEL}. */
  PaymentChannel get(String name) {
    PaymentChannel channel = byName.get(name);
    if (channel == null) {
      throw ApplicationFailure.newNonRetryableFailure(
          "no channel " + name, ReconciliationFailure.UNKNOWN_CHANNEL.name());
    }
    return channel;
  }

  /** One statement page through the named adapter; channel errors as {@link #failure}. */
  StatementPage statement(String channel, LocalDate date, String pageToken) {
    try {
      return get(channel).statement(date, pageToken);
    } catch (ChannelException e) {
      throw failure(e);
    }
  }

  /** An ISO-8601 day, or a non-retryable {@code INVALID_REQUEST}. */
  static LocalDate day(String date) {
    try {
      return LocalDate.parse(date == null ? "" : date);
    } catch (DateTimeParseException e) {
      throw ApplicationFailure.newNonRetryableFailureWithCause(
          "not an ISO-8601 date: " + date, ReconciliationFailure.INVALID_REQUEST.name(), e);
    }
  }

  /**
   * A failed channel call: retryable {@code CHANNEL_UNAVAILABLE} (its outcome unknown) or
   * non-retryable {@code CHANNEL_REFUSED}, cause kept.
   */
  static ApplicationFailure failure(ChannelException e) {
    return e.retryable()
        ? ApplicationFailure.newFailureWithCause(
            e.getMessage(), ReconciliationFailure.CHANNEL_UNAVAILABLE.name(), e)
        : ApplicationFailure.newNonRetryableFailureWithCause(
            e.getMessage(), ReconciliationFailure.CHANNEL_REFUSED.name(), e);
  }
}

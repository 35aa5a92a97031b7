package dev.payrelay.activities;

import dev.payrelay.domain.channel.ChannelException;
import dev.payrelay.domain.channel.ChannelQueryResult;
import dev.payrelay.domain.channel.PaymentChannel;
import dev.payrelay.workflows.activities.ChannelActivities;
import dev.payrelay.workflows.activities.ChannelCallRequest;
import dev.payrelay.workflows.activities.ChannelStatus;
import io.temporal.failure.ApplicationFailure;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Channel calls for payment workflows, through the channel adapters. A failed call is a retryable
 * {@code CHANNEL_UNAVAILABLE} (its outcome is unknown) or a non-retryable {@code CHANNEL_REFUSED};
 * never an answer.
 */
public final class ChannelActivitiesImpl implements ChannelActivities {

  private static final Logger log = LoggerFactory.getLogger(ChannelActivitiesImpl.class);

  private final Map<String, PaymentChannel> channels;

  /** Activities over {@code channels}, found by {@link PaymentChannel#name()}. */
  public ChannelActivitiesImpl(List<PaymentChannel> channels) {
    this.channels =
        channels.stream()
            .collect(Collectors.toUnmodifiableMap(PaymentChannel::name, Function.identity()));
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
    PaymentChannel channel = channels.get(request.channel());
    if (channel == null) {
      throw ApplicationFailure.newNonRetryableFailure(
          "no channel " + request.channel(), "CHANNEL_REFUSED");
    }
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
}

package dev.payrelay.workflows.activities;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/**
 * Calls to the payment's channel. Type names are prefixed {@code Channel}. Each call carries an
 * idempotency key derived from the payment, never from the attempt. A failed call's outcome is
 * unknown: callers never read it as "not paid".
 */
@ActivityInterface(namePrefix = "Channel")
public interface ChannelActivities {

  /**
   * Asks the channel for the payment's state.
   *
   * @throws io.temporal.failure.ApplicationFailure of type {@code CHANNEL_UNAVAILABLE} (retryable)
   *     or {@code CHANNEL_REFUSED} (not)
   */
  @ActivityMethod
  ChannelStatus query(ChannelCallRequest request);

  /**
   * Closes the payment at the channel; answers the state afterwards (PAID if it was paid first).
   *
   * @throws io.temporal.failure.ApplicationFailure as {@link #query}
   */
  @ActivityMethod
  ChannelStatus close(ChannelCallRequest request);
}

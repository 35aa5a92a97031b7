package dev.payrelay.workflows.activities;

/**
 * Argument of {@link ChannelActivities}.
 *
 * @param paymentId our payment id (also the root of the call's idempotency key)
 * @param channel the channel name
 */
public record ChannelCallRequest(String paymentId, String channel) {}

package dev.payrelay.domain.channel;

/**
 * The channel's answer to a registration.
 *
 * @param paymentId our payment id
 * @param payUrl where the buyer pays (for the sandbox: its pay page)
 */
public record ChannelRegistration(String paymentId, String payUrl) {}

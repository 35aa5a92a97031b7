package dev.payrelay.domain.channel;

import dev.payrelay.domain.Money;
import java.time.Instant;

/**
 * What a channel needs to let a buyer pay one payment attempt.
 *
 * @param paymentId our payment id; the channel echoes it in callbacks and keys registration on it
 * @param merchantId our merchant account at the channel
 * @param amount the amount due, in minor units
 * @param description a human-readable line for the buyer
 * @param expiresAt after this instant the channel must refuse to take the money
 */
public record ChannelPaymentRequest(
    String paymentId, String merchantId, Money amount, String description, Instant expiresAt) {}

package dev.payrelay.worker;

import java.util.Objects;
import java.util.Set;

/**
 * A merchant account at a channel serving some tenants, from {@code PAYRELAY_CHANNEL_ACCOUNTS_FILE}
 * ({@link ChannelAccountsFile}). Tenants without one use the channel's default account ({@code
 * PAYRELAY_SANDBOX_MERCHANT_ID} / {@code PAYRELAY_SANDBOX_SECRET}).
 *
 * @param channel the channel's name, e.g. {@code sandbox}
 * @param merchantId the account's merchant id at the channel, recorded on its payments; unique per
 *     channel, at most 64 characters (the {@code payment_order.merchant_id} column)
 * @param tenants the tenants whose payments use this account; at least one
 * @param secret the HMAC secret shared with the channel for this account
 * @param secretSource where the secret was read, named in errors and production refusals without
 *     the secret itself, e.g. {@code PAYRELAY_CHANNEL_ACCOUNTS_FILE account sandbox/m_acme
 *     (secretEnv ACME_SANDBOX_SECRET)}
 */
public record ChannelAccountSettings(
    String channel, String merchantId, Set<String> tenants, String secret, String secretSource) {

  /** Copies the tenants; no component may be null. */
  public ChannelAccountSettings {
    Objects.requireNonNull(channel, "channel");
    Objects.requireNonNull(merchantId, "merchantId");
    Objects.requireNonNull(secret, "secret");
    Objects.requireNonNull(secretSource, "secretSource");
    tenants = Set.copyOf(tenants);
  }

  /** The secret stays out of logs. */
  @Override
  public String toString() {
    return "ChannelAccountSettings[channel=%s, merchantId=%s, tenants=%s, secret from %s]"
        .formatted(channel, merchantId, tenants.stream().sorted().toList(), secretSource);
  }
}

package dev.payrelay.app.config;

import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * A merchant account at a channel serving some tenants, from {@code PAYRELAY_CHANNEL_ACCOUNTS_FILE}
 * ({@link ChannelAccountsFile}). Tenants without one use the channel's default account (e.g. {@code
 * PAYRELAY_SANDBOX_MERCHANT_ID} / {@code PAYRELAY_SANDBOX_SECRET}, {@code PAYRELAY_STRIPE_*}).
 *
 * @param channel the channel's name: {@code sandbox}, {@code stripe}, {@code alipay} or {@code
 *     wechatpay}
 * @param merchantId the account's merchant id at the channel, recorded on its payments: the
 *     sandbox's merchant id, Stripe's account id ({@code acct_...}), Alipay's {@code app_id},
 *     WeChat Pay's {@code mchid}; unique per channel, at most 64 characters (the {@code
 *     payment_order.merchant_id} column)
 * @param tenants the tenants whose payments use this account; at least one
 * @param credentials the account's credentials by name ({@link ChannelAccountsFile#CREDENTIALS}
 *     lists each channel's), e.g. {@code secret} for the sandbox, {@code apiKey} and {@code
 *     webhookSecret} for Stripe
 * @param secretSource where the secrets were read, named in errors and production refusals without
 *     the secrets themselves, e.g. {@code PAYRELAY_CHANNEL_ACCOUNTS_FILE account sandbox/m_acme
 *     (secretEnv ACME_SANDBOX_SECRET)}
 */
public record ChannelAccountSettings(
    String channel,
    String merchantId,
    Set<String> tenants,
    Map<String, String> credentials,
    String secretSource) {

  /** Copies the tenants and credentials; no component may be null. */
  public ChannelAccountSettings {
    Objects.requireNonNull(channel, "channel");
    Objects.requireNonNull(merchantId, "merchantId");
    Objects.requireNonNull(secretSource, "secretSource");
    tenants = Set.copyOf(tenants);
    credentials = Map.copyOf(credentials);
  }

  /** The sandbox account's HMAC secret (credential {@code secret}); null for other channels. */
  public String secret() {
    return credentials.get("secret");
  }

  /**
   * The credential {@code name}.
   *
   * @return null when the account has none of that name (an optional one, e.g. {@code apiBase})
   */
  public String credential(String name) {
    return credentials.get(name);
  }

  /** The credentials stay out of logs: only their names. */
  @Override
  public String toString() {
    return "ChannelAccountSettings[channel=%s, merchantId=%s, tenants=%s, credentials=%s from %s]"
        .formatted(
            channel,
            merchantId,
            tenants.stream().sorted().toList(),
            new TreeMap<>(credentials).keySet(),
            secretSource);
  }
}

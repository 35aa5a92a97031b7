package dev.payrelay.domain.channel;

import java.util.Objects;
import java.util.Set;

/**
 * One merchant account at a channel: payments of its tenants are created with its merchant id, and
 * callbacks about its payments are verified by its adapter, which holds its secret.
 *
 * @param merchantId the account's merchant id at the channel, recorded on each of its payments
 *     ({@code payment_order.merchant_id}); unique per channel
 * @param tenants the tenants whose payments use this account; empty for the channel's default
 *     account, which serves every other tenant
 * @param adapter the channel adapter configured with this account's merchant id and secret
 */
public record ChannelAccount(String merchantId, Set<String> tenants, PaymentChannel adapter) {

  /** Copies the tenants; none of the components may be null. */
  public ChannelAccount {
    Objects.requireNonNull(merchantId, "merchantId");
    Objects.requireNonNull(adapter, "adapter");
    tenants = Set.copyOf(tenants);
  }

  /** A channel's default account: serves every tenant without an account of its own. */
  public static ChannelAccount defaultAccount(String merchantId, PaymentChannel adapter) {
    return new ChannelAccount(merchantId, Set.of(), adapter);
  }

  /** Whether this is its channel's default account. */
  public boolean isDefault() {
    return tenants.isEmpty();
  }
}

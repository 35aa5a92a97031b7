package dev.payrelay.domain.channel;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The channel adapters this deployment speaks, by {@link PaymentChannel#name()}, with their
 * merchant accounts: one default account per channel and any number of tenant accounts.
 */
public final class ChannelRegistry {

  private final Map<String, Accounts> byName = new LinkedHashMap<>();

  /**
   * A registry of {@code accounts}.
   *
   * @throws IllegalArgumentException if a channel has no default account or more than one, two
   *     accounts of a channel share a merchant id, or a tenant has two accounts at one channel
   */
  public static ChannelRegistry of(List<ChannelAccount> accounts) {
    return new ChannelRegistry(accounts);
  }

  private ChannelRegistry(List<ChannelAccount> accounts) {
    for (ChannelAccount account : accounts) {
      byName.computeIfAbsent(account.adapter().name(), Accounts::new).add(account);
    }
    byName.values().forEach(Accounts::requireDefault);
  }

  /** The configured channels' names, in the order their first accounts were given. */
  public List<String> names() {
    return List.copyOf(byName.keySet());
  }

  /** The adapter of channel {@code name}'s default account, if the channel is configured. */
  public Optional<PaymentChannel> find(String name) {
    return defaultAccount(name).map(ChannelAccount::adapter);
  }

  /** Channel {@code name}'s default account, if the channel is configured. */
  public Optional<ChannelAccount> defaultAccount(String name) {
    return Optional.ofNullable(byName.get(name)).map(a -> a.defaultAccount);
  }

  /**
   * The account a tenant's new payments at channel {@code name} use: the tenant's own, else the
   * channel's default account.
   *
   * @return empty if the channel is not configured
   */
  public Optional<ChannelAccount> forTenant(String name, String tenant) {
    return Optional.ofNullable(byName.get(name))
        .map(a -> a.byTenant.getOrDefault(tenant, a.defaultAccount));
  }

  /**
   * The account with merchant id {@code merchantId} at channel {@code name}: the one whose secret
   * verifies callbacks about that merchant's payments.
   *
   * @return empty if the channel is not configured or has no such account (e.g. an account removed
   *     from the configuration while it still had payments)
   */
  public Optional<ChannelAccount> forMerchant(String name, String merchantId) {
    return Optional.ofNullable(byName.get(name)).map(a -> a.byMerchant.get(merchantId));
  }

  /**
   * The accounts whose statements together cover channel {@code name}: every account, the default
   * first and the others by merchant id; only the default when its adapter's statement {@link
   * PaymentChannel#statementCoversEveryAccount() covers every account}.
   *
   * @return empty if the channel is not configured
   */
  public List<ChannelAccount> statementAccounts(String name) {
    Accounts accounts = byName.get(name);
    if (accounts == null) {
      return List.of();
    }
    if (accounts.defaultAccount.adapter().statementCoversEveryAccount()) {
      return List.of(accounts.defaultAccount);
    }
    List<ChannelAccount> all = new ArrayList<>();
    all.add(accounts.defaultAccount);
    accounts.byMerchant.values().stream()
        .filter(a -> !a.isDefault())
        .sorted(Comparator.comparing(ChannelAccount::merchantId))
        .forEach(all::add);
    return all;
  }

  /** One channel's accounts. */
  private static final class Accounts {
    private final String channel;
    private final Map<String, ChannelAccount> byMerchant = new HashMap<>();
    private final Map<String, ChannelAccount> byTenant = new HashMap<>();
    private ChannelAccount defaultAccount;

    Accounts(String channel) {
      this.channel = channel;
    }

    void add(ChannelAccount account) {
      if (byMerchant.putIfAbsent(account.merchantId(), account) != null) {
        throw new IllegalArgumentException(
            channel + " has two accounts with merchant id " + account.merchantId());
      }
      if (account.isDefault()) {
        if (defaultAccount != null) {
          throw new IllegalArgumentException(channel + " has two default accounts");
        }
        defaultAccount = account;
      }
      for (String tenant : account.tenants()) {
        if (byTenant.putIfAbsent(tenant, account) != null) {
          throw new IllegalArgumentException(
              "tenant " + tenant + " has two accounts at " + channel);
        }
      }
    }

    void requireDefault() {
      if (defaultAccount == null) {
        throw new IllegalArgumentException(channel + " has no default account");
      }
    }
  }
}

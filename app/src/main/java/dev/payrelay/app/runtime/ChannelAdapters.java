package dev.payrelay.app.runtime;

import com.alipay.api.internal.util.AlipayLogger;
import dev.payrelay.app.config.AlipaySettings;
import dev.payrelay.app.config.ChannelAccountSettings;
import dev.payrelay.app.config.ChannelAccountsFile;
import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.config.StripeSettings;
import dev.payrelay.app.config.WechatPaySettings;
import dev.payrelay.channels.alipay.AlipayChannel;
import dev.payrelay.channels.stripe.StripeChannel;
import dev.payrelay.channels.wechatpay.WechatPayChannel;
import dev.payrelay.domain.channel.ChannelAccount;
import dev.payrelay.domain.channel.PaymentChannel;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The adapters of the channels besides the sandbox, a default merchant account each and its
 * tenants' accounts: Stripe (merchant id = the account id), Alipay (merchant id = the app id) and
 * WeChat Pay (merchant id = the {@code mchid}), when {@link StripeSettings#active()} / {@link
 * AlipaySettings#active()} / {@link WechatPaySettings#active()}.
 */
public final class ChannelAdapters {

  private ChannelAdapters() {}

  /**
   * The accounts of the active channels, for the {@link
   * dev.payrelay.domain.channel.ChannelRegistry}: each channel's default account, then its tenants'
   * accounts ({@link ChannelAccountsFile}), each with an adapter holding its own credentials. A
   * tenant account's callbacks come to {@code /v1/webhooks/{channel}/{merchantId}}: Alipay and
   * WeChat Pay are told so in each order's {@code notify_url}; for Stripe it is the endpoint to
   * register in that account's dashboard (the channel's own URL works too: the event names the
   * payment, whose account then verifies it).
   *
   * @throws IllegalArgumentException naming the missing settings of an enabled channel, or the
   *     accounts of a channel that is not active
   */
  public static List<ChannelAccount> accounts(PayrelayConfig config) {
    List<Account> accounts = new ArrayList<>();
    StripeSettings stripe = config.stripe();
    add(accounts, StripeChannel.NAME, stripe.active(), stripe.accountId(), stripe.accounts());
    AlipaySettings alipay = config.alipay();
    add(accounts, AlipayChannel.NAME, alipay.active(), alipay.appId(), alipay.accounts());
    WechatPaySettings wechatpay = config.wechatpay();
    add(
        accounts,
        WechatPayChannel.NAME,
        wechatpay.active(),
        wechatpay.mchId(),
        wechatpay.accounts());
    return accounts.stream()
        .map(a -> new ChannelAccount(a.merchantId(), a.tenants(), adapter(config, a)))
        .toList();
  }

  /** One account to build: the default one (no tenants, no settings) or a tenant's. */
  private record Account(
      String channel, String merchantId, Set<String> tenants, ChannelAccountSettings settings) {}

  private static void add(
      List<Account> accounts,
      String channel,
      boolean active,
      String defaultMerchant,
      List<ChannelAccountSettings> tenantAccounts) {
    if (!active) {
      if (!tenantAccounts.isEmpty()) {
        throw new IllegalArgumentException(
            ChannelAccountsFile.VARIABLE
                + " has "
                + channel
                + " accounts but "
                + channel
                + " is not enabled (PAYRELAY_"
                + channel.toUpperCase(java.util.Locale.ROOT)
                + "_ENABLED, or its default account's credentials)");
      }
      return;
    }
    accounts.add(new Account(channel, defaultMerchant, Set.of(), null));
    for (ChannelAccountSettings a : tenantAccounts) {
      accounts.add(new Account(channel, a.merchantId(), a.tenants(), a));
    }
  }

  private static PaymentChannel adapter(PayrelayConfig config, Account account) {
    ChannelAccountSettings tenant = account.settings();
    URI notifyUrl =
        tenant == null
            ? config.api().webhookUrl(account.channel())
            : config.api().webhookUrl(account.channel(), account.merchantId());
    return switch (account.channel()) {
      case StripeChannel.NAME ->
          new StripeChannel(
              (tenant == null ? config.stripe() : config.stripe().forAccount(tenant))
                  .channelConfig(),
              Clock.systemUTC());
      case AlipayChannel.NAME -> {
        // The SDK's own logger writes through java.util.logging to stderr, past logback and
        // PAYRELAY_LOG_FORMAT: a SEVERE line for every query of an unpaid trade and an INFO line
        // with each whole signed request. Our adapter reports what matters through SLF4J.
        AlipayLogger.setNeedEnableLogger(false);
        yield new AlipayChannel(
            (tenant == null ? config.alipay() : config.alipay().forAccount(tenant))
                .channelConfig(notifyUrl),
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build());
      }
      case WechatPayChannel.NAME ->
          new WechatPayChannel(
              (tenant == null ? config.wechatpay() : config.wechatpay().forAccount(tenant))
                  .channelConfig(notifyUrl));
      default -> throw new IllegalStateException("no adapter for " + account.channel());
    };
  }
}

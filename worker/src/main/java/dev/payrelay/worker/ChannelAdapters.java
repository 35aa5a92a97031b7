package dev.payrelay.worker;

import dev.payrelay.channels.alipay.AlipayChannel;
import dev.payrelay.channels.stripe.StripeChannel;
import dev.payrelay.domain.channel.ChannelAccount;
import dev.payrelay.domain.channel.PaymentChannel;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The adapters of the channels besides the sandbox, each with its one default merchant account:
 * Stripe (merchant id = the account id) and Alipay (merchant id = the app id), when {@link
 * StripeSettings#active()} / {@link AlipaySettings#active()}.
 */
final class ChannelAdapters {

  private ChannelAdapters() {}

  /**
   * The default accounts of the active channels, for the API's {@link
   * dev.payrelay.api.ChannelRegistry}.
   *
   * @throws IllegalArgumentException naming the missing settings of an enabled channel
   */
  static List<ChannelAccount> defaultAccounts(PayrelayConfig config) {
    List<ChannelAccount> accounts = new ArrayList<>();
    if (config.stripe().active()) {
      accounts.add(ChannelAccount.defaultAccount(config.stripe().accountId(), stripe(config)));
    }
    if (config.alipay().active()) {
      accounts.add(ChannelAccount.defaultAccount(config.alipay().appId(), alipay(config)));
    }
    return accounts;
  }

  /**
   * The active channels' adapters, for the worker's queries, closes and statements.
   *
   * @throws IllegalArgumentException naming the missing settings of an enabled channel
   */
  static List<PaymentChannel> adapters(PayrelayConfig config) {
    return defaultAccounts(config).stream().map(ChannelAccount::adapter).toList();
  }

  private static StripeChannel stripe(PayrelayConfig config) {
    return new StripeChannel(config.stripe().channelConfig(), Clock.systemUTC());
  }

  private static AlipayChannel alipay(PayrelayConfig config) {
    return new AlipayChannel(
        config.alipay().channelConfig(config.api().webhookUrl(AlipayChannel.NAME)),
        HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build());
  }
}

package dev.payrelay.worker;

import dev.payrelay.channels.alipay.AlipayChannel;
import dev.payrelay.channels.stripe.StripeChannel;
import dev.payrelay.channels.wechatpay.WechatPayChannel;
import dev.payrelay.domain.channel.ChannelAccount;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The adapters of the channels besides the sandbox, each with its one default merchant account:
 * Stripe (merchant id = the account id), Alipay (merchant id = the app id) and WeChat Pay (merchant
 * id = the {@code mchid}), when {@link StripeSettings#active()} / {@link AlipaySettings#active()} /
 * {@link WechatPaySettings#active()}.
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
    if (config.wechatpay().active()) {
      accounts.add(ChannelAccount.defaultAccount(config.wechatpay().mchId(), wechatpay(config)));
    }
    return accounts;
  }

  private static StripeChannel stripe(PayrelayConfig config) {
    return new StripeChannel(config.stripe().channelConfig(), Clock.systemUTC());
  }

  private static AlipayChannel alipay(PayrelayConfig config) {
    return new AlipayChannel(
        config.alipay().channelConfig(config.api().webhookUrl(AlipayChannel.NAME)),
        HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build());
  }

  private static WechatPayChannel wechatpay(PayrelayConfig config) {
    return new WechatPayChannel(
        config.wechatpay().channelConfig(config.api().webhookUrl(WechatPayChannel.NAME)));
  }
}

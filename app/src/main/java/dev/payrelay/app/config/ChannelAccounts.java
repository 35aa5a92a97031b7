package dev.payrelay.app.config;

import dev.payrelay.app.config.PayrelayConfig.SandboxSettings;
import dev.payrelay.app.config.mapping.PayrelayMapping;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The tenants' own merchant accounts of {@code PAYRELAY_CHANNEL_ACCOUNTS_FILE} ({@link
 * ChannelAccountsFile}), none reusing a channel's default merchant id (the sandbox's, Stripe's
 * account, Alipay's app, WeChat Pay's mchid), handed to each channel's settings.
 *
 * @param all every account of the file; empty when the setting is unset
 */
record ChannelAccounts(List<ChannelAccountSettings> all) {

  /** Copies the accounts. */
  ChannelAccounts {
    all = List.copyOf(all);
  }

  /**
   * Reads the file {@code m} names; none when unset, or when a channel's own settings could not be
   * built (their refusal is reported already).
   *
   * @param env where the file's {@code secretEnv} names are looked up
   * @throws IllegalArgumentException naming the file, the account and the field
   */
  static ChannelAccounts read(
      PayrelayMapping m,
      Map<String, String> env,
      SandboxSettings sandbox,
      StripeSettings stripe,
      AlipaySettings alipay,
      WechatPaySettings wechatpay) {
    if (m.channelAccountsFile().isEmpty()
        || sandbox == null
        || stripe == null
        || alipay == null
        || wechatpay == null) {
      return new ChannelAccounts(List.of());
    }
    Map<String, String> defaults = new HashMap<>();
    defaults.put("sandbox", sandbox.merchantId());
    putIfSet(defaults, "stripe", stripe.accountId());
    putIfSet(defaults, "alipay", alipay.appId());
    putIfSet(defaults, "wechatpay", wechatpay.mchId());
    return new ChannelAccounts(
        ChannelAccountsFile.read(m.channelAccountsFile().get(), env, defaults));
  }

  /** {@code config} with each channel's tenant accounts. */
  PayrelayConfig applyTo(PayrelayConfig config) {
    return new PayrelayConfig(
        config.database(),
        config.sizing(),
        config.amqp(),
        config.temporal(),
        config.api(),
        config.sandbox().withAccounts(of("sandbox")),
        config.dispatcher(),
        config.outbox(),
        config.inbox(),
        config.crashPoints(),
        config.access(),
        config.profile(),
        config.operations(),
        config.consumers(),
        config.stripe().withAccounts(of("stripe")),
        config.alipay().withAccounts(of("alipay")),
        config.wechatpay().withAccounts(of("wechatpay")));
  }

  private List<ChannelAccountSettings> of(String channel) {
    return all.stream().filter(a -> a.channel().equals(channel)).toList();
  }

  private static void putIfSet(Map<String, String> defaults, String channel, String merchantId) {
    if (merchantId != null) {
      defaults.put(channel, merchantId);
    }
  }
}

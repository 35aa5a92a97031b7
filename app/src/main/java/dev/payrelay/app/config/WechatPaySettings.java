package dev.payrelay.app.config;

import dev.payrelay.app.config.mapping.ChannelMapping;
import dev.payrelay.channels.wechatpay.WechatPayChannelConfig;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * The WeChat Pay APIv3 channel ({@link dev.payrelay.channels.wechatpay.WechatPayChannel}, direct
 * merchant, Native payments, WeChat Pay public-key mode): one default merchant account, our {@code
 * mchid}, and the tenants' own merchants ({@link ChannelAccountsFile}). The names follow WeChat
 * Pay's APIv3 docs; the settings ({@code PAYRELAY_WECHATPAY_*}) are declared in {@link
 * ChannelMapping.Wechatpay}.
 *
 * @param enabled true or false; null when unset, which means enabled when a credential is set, and
 *     under {@code payrelay dev} (and the test harness) enabled on an in-process simulator with
 *     freshly generated keys when none is
 * @param mchId our {@code mchid}, the merchant id of every WeChat Pay payment
 * @param appId the {@code appid} bound to the merchant
 * @param merchantSerialNumber the serial number of the merchant API certificate
 * @param merchantPrivateKey that certificate's RSA private key
 * @param apiV3Key the APIv3 key, 32 ASCII characters
 * @param publicKeyId the WeChat Pay public key's id ({@code PUB_KEY_ID_...})
 * @param publicKey WeChat Pay's RSA public key
 * @param baseUrl WeChat Pay's API host
 * @param accounts the tenants' own WeChat Pay accounts, each served by an adapter with its
 *     credentials ({@link #forAccount}); empty when none
 */
public record WechatPaySettings(
    Boolean enabled,
    String mchId,
    String appId,
    String merchantSerialNumber,
    String merchantPrivateKey,
    String apiV3Key,
    String publicKeyId,
    String publicKey,
    URI baseUrl,
    List<ChannelAccountSettings> accounts) {

  /** Copies the accounts. */
  public WechatPaySettings {
    accounts = accounts == null ? List.of() : List.copyOf(accounts);
  }

  /** These settings with {@code tenantAccounts} as the tenants' own accounts. */
  WechatPaySettings withAccounts(List<ChannelAccountSettings> tenantAccounts) {
    return new WechatPaySettings(
        enabled,
        mchId,
        appId,
        merchantSerialNumber,
        merchantPrivateKey,
        apiV3Key,
        publicKeyId,
        publicKey,
        baseUrl,
        tenantAccounts);
  }

  /**
   * The settings of a tenant's account: its merchant and credentials, the channel's other settings
   * (and its API address unless the account gives its own), no tenant accounts of its own.
   */
  public WechatPaySettings forAccount(ChannelAccountSettings account) {
    return new WechatPaySettings(
        true,
        account.merchantId(),
        account.credential("appId"),
        account.credential("merchantSerialNumber"),
        account.credential("merchantPrivateKey"),
        account.credential("apiV3Key"),
        account.credential("publicKeyId"),
        account.credential("publicKey"),
        account.credential("baseUrl") == null ? baseUrl : URI.create(account.credential("baseUrl")),
        List.of());
  }

  /** WeChat Pay's API host. */
  public static final URI WECHATPAY_API = WechatPayChannelConfig.PRODUCTION_API;

  /** The APIv3 key's length in characters: an AES-256 key (APIv3 docs, "APIv3密钥"). */
  static final int API_V3_KEY_LENGTH = 32;

  private static final String API_V3_KEY_SHAPE =
      "PAYRELAY_WECHATPAY_API_V3_KEY (or _FILE) must be "
          + API_V3_KEY_LENGTH
          + " printable ASCII characters (the APIv3 key set in the merchant platform)";

  /** The settings of {@code m}. */
  static WechatPaySettings from(ChannelMapping.Wechatpay m) {
    return new WechatPaySettings(
        m.enabled().orElse(null),
        m.mchId().orElse(null),
        m.appId().orElse(null),
        m.merchantSerialNumber().orElse(null),
        SecretSetting.read(
            "PAYRELAY_WECHATPAY_MERCHANT_PRIVATE_KEY",
            m.merchantPrivateKey(),
            m.merchantPrivateKeyFile()),
        SecretSetting.read("PAYRELAY_WECHATPAY_API_V3_KEY", m.apiV3Key(), m.apiV3KeyFile()),
        m.publicKeyId().orElse(null),
        SecretSetting.read("PAYRELAY_WECHATPAY_PUBLIC_KEY", m.publicKey(), m.publicKeyFile()),
        m.baseUrl(),
        List.of());
  }

  /** The credentials, each with the setting it is read from, in the order messages name them. */
  private List<ChannelSettings.Credential> credentials() {
    return List.of(
        new ChannelSettings.Credential("PAYRELAY_WECHATPAY_MCH_ID", mchId),
        new ChannelSettings.Credential("PAYRELAY_WECHATPAY_APP_ID", appId),
        new ChannelSettings.Credential(
            "PAYRELAY_WECHATPAY_MERCHANT_SERIAL_NUMBER", merchantSerialNumber),
        new ChannelSettings.Credential(
            "PAYRELAY_WECHATPAY_MERCHANT_PRIVATE_KEY (or _FILE)", merchantPrivateKey),
        new ChannelSettings.Credential("PAYRELAY_WECHATPAY_API_V3_KEY (or _FILE)", apiV3Key),
        new ChannelSettings.Credential("PAYRELAY_WECHATPAY_PUBLIC_KEY_ID", publicKeyId),
        new ChannelSettings.Credential("PAYRELAY_WECHATPAY_PUBLIC_KEY (or _FILE)", publicKey));
  }

  /** Whether the API and the worker serve WeChat Pay: enabled, or unset with a credential set. */
  public boolean active() {
    return ChannelSettings.active(enabled, credentials());
  }

  /**
   * Whether {@code payrelay dev} plays WeChat Pay with its simulator: not disabled, no credential.
   */
  public boolean simulated() {
    return ChannelSettings.simulated(enabled, credentials());
  }

  /** These settings pointed at a simulator: enabled, with its merchant, keys and base URL. */
  public WechatPaySettings onSimulator(
      String mch,
      String app,
      String serial,
      String privateKey,
      String v3Key,
      String keyId,
      String platformKey,
      URI simulatorUrl) {
    return new WechatPaySettings(
        true, mch, app, serial, privateKey, v3Key, keyId, platformKey, simulatorUrl, accounts);
  }

  /** The settings each missing credential is read from; empty when all are set. */
  List<String> missing() {
    return ChannelSettings.missing(credentials());
  }

  /**
   * The adapter's configuration with 5 s connect and 30 s read timeouts.
   *
   * @param notifyUrl payrelay's webhook URL for WeChat Pay, sent as {@code notify_url}
   * @throws IllegalArgumentException naming the missing settings when a credential is not set, the
   *     setting of a key that is not an RSA key, or {@code PAYRELAY_WECHATPAY_API_V3_KEY} when the
   *     key is not 32 printable ASCII characters
   */
  public WechatPayChannelConfig channelConfig(URI notifyUrl) {
    ChannelSettings.requireComplete("WeChat Pay", credentials());
    ChannelSettings.requireRsaKey(
        "PAYRELAY_WECHATPAY_MERCHANT_PRIVATE_KEY", merchantPrivateKey, true);
    ChannelSettings.requireRsaKey("PAYRELAY_WECHATPAY_PUBLIC_KEY", publicKey, false);
    if (!apiV3KeyWellFormed()) {
      throw new IllegalArgumentException(API_V3_KEY_SHAPE);
    }
    return new WechatPayChannelConfig(
        baseUrl,
        mchId,
        appId,
        merchantSerialNumber,
        merchantPrivateKey,
        publicKeyId,
        publicKey,
        apiV3Key,
        notifyUrl,
        ChannelSettings.CONNECT_TIMEOUT,
        ChannelSettings.READ_TIMEOUT);
  }

  /**
   * Production mode's rules for an active WeChat Pay channel: every credential set (production
   * never starts a simulator), an APIv3 key of 32 characters, and an https base URL on a host other
   * than loopback (the simulator serves plain http on 127.0.0.1).
   *
   * @return one line per broken rule, each naming its setting; empty when WeChat Pay is not active
   */
  List<String> productionRefusals() {
    List<String> refusals =
        new ArrayList<>(
            ChannelSettings.productionRefusals(
                "WeChat Pay",
                active(),
                credentials(),
                "PAYRELAY_WECHATPAY_BASE_URL",
                baseUrl,
                WECHATPAY_API));
    if (active() && apiV3Key != null && !apiV3KeyWellFormed()) {
      refusals.add(API_V3_KEY_SHAPE);
    }
    return refusals;
  }

  /** The keys stay out of logs. */
  @Override
  public String toString() {
    return ("WechatPaySettings[enabled=%s, mchId=%s, appId=%s, merchantSerialNumber=%s,"
            + " publicKeyId=%s, baseUrl=%s, accounts=%s]")
        .formatted(enabled, mchId, appId, merchantSerialNumber, publicKeyId, baseUrl, accounts);
  }

  private boolean apiV3KeyWellFormed() {
    return apiV3Key.length() == API_V3_KEY_LENGTH
        && apiV3Key.chars().allMatch(c -> c > 0x20 && c < 0x7f);
  }
}

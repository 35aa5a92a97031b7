package dev.payrelay.app.config;

import dev.payrelay.app.config.mapping.ChannelMapping;
import dev.payrelay.channels.alipay.AlipayChannelConfig;
import java.net.URI;
import java.util.List;

/**
 * The Alipay channel ({@link dev.payrelay.channels.alipay.AlipayChannel}, public-key mode, RSA2):
 * one default merchant account, our app, and the tenants' own apps ({@link ChannelAccountsFile}).
 * The settings ({@code PAYRELAY_ALIPAY_*}) are declared in {@link ChannelMapping.Alipay}.
 *
 * @param enabled true or false; null when unset, which means enabled when a credential is set, and
 *     under {@code payrelay dev} (and the test harness) enabled on an in-process simulator with
 *     freshly generated keys when none is
 * @param appId our app's {@code app_id}, the merchant id of every Alipay payment
 * @param appPrivateKey the app's RSA private key, PKCS#8 DER in Base64
 * @param alipayPublicKey Alipay's RSA public key, X.509 DER in Base64
 * @param gatewayUrl Alipay's gateway
 * @param accounts the tenants' own Alipay accounts, each served by an adapter with its credentials
 *     ({@link #forAccount}); empty when none
 */
public record AlipaySettings(
    Boolean enabled,
    String appId,
    String appPrivateKey,
    String alipayPublicKey,
    URI gatewayUrl,
    List<ChannelAccountSettings> accounts) {

  /** Copies the accounts. */
  public AlipaySettings {
    accounts = accounts == null ? List.of() : List.copyOf(accounts);
  }

  /** These settings with {@code tenantAccounts} as the tenants' own accounts. */
  AlipaySettings withAccounts(List<ChannelAccountSettings> tenantAccounts) {
    return new AlipaySettings(
        enabled, appId, appPrivateKey, alipayPublicKey, gatewayUrl, tenantAccounts);
  }

  /**
   * The settings of a tenant's account: its merchant and credentials, the channel's other settings
   * (and its API address unless the account gives its own), no tenant accounts of its own.
   */
  public AlipaySettings forAccount(ChannelAccountSettings account) {
    return new AlipaySettings(
        true,
        account.merchantId(),
        account.credential("appPrivateKey"),
        account.credential("alipayPublicKey"),
        account.credential("gatewayUrl") == null
            ? gatewayUrl
            : URI.create(account.credential("gatewayUrl")),
        List.of());
  }

  /** Alipay's open platform gateway. */
  public static final URI ALIPAY_GATEWAY = URI.create("https://openapi.alipay.com/gateway.do");

  /** The settings of {@code m}. */
  static AlipaySettings from(ChannelMapping.Alipay m) {
    return new AlipaySettings(
        m.enabled().orElse(null),
        m.appId().orElse(null),
        SecretSetting.read(
            "PAYRELAY_ALIPAY_APP_PRIVATE_KEY", m.appPrivateKey(), m.appPrivateKeyFile()),
        SecretSetting.read("PAYRELAY_ALIPAY_PUBLIC_KEY", m.publicKey(), m.publicKeyFile()),
        m.gatewayUrl(),
        List.of());
  }

  /** The credentials, each with the setting it is read from, in the order messages name them. */
  private List<ChannelSettings.Credential> credentials() {
    return List.of(
        new ChannelSettings.Credential("PAYRELAY_ALIPAY_APP_ID", appId),
        new ChannelSettings.Credential("PAYRELAY_ALIPAY_APP_PRIVATE_KEY (or _FILE)", appPrivateKey),
        new ChannelSettings.Credential("PAYRELAY_ALIPAY_PUBLIC_KEY (or _FILE)", alipayPublicKey));
  }

  /** Whether the API and the worker serve Alipay: enabled, or unset with a credential set. */
  public boolean active() {
    return ChannelSettings.active(enabled, credentials());
  }

  /** Whether {@code payrelay dev} plays Alipay with its simulator: not disabled, no credential. */
  public boolean simulated() {
    return ChannelSettings.simulated(enabled, credentials());
  }

  /** These settings pointed at a simulator: enabled, with its app, keys and gateway. */
  public AlipaySettings onSimulator(String app, String privateKey, String publicKey, URI gateway) {
    return new AlipaySettings(true, app, privateKey, publicKey, gateway, accounts);
  }

  /** The settings each missing credential is read from; empty when all are set. */
  List<String> missing() {
    return ChannelSettings.missing(credentials());
  }

  /**
   * The adapter's configuration with 5 s connect and 30 s read timeouts.
   *
   * @param notifyUrl payrelay's webhook URL for Alipay, sent as {@code notify_url}
   * @throws IllegalArgumentException naming the missing settings when a credential is not set, or
   *     the setting of a key that is not an RSA key
   */
  public AlipayChannelConfig channelConfig(URI notifyUrl) {
    ChannelSettings.requireComplete("Alipay", credentials());
    ChannelSettings.requireRsaKey("PAYRELAY_ALIPAY_APP_PRIVATE_KEY", appPrivateKey, true);
    ChannelSettings.requireRsaKey("PAYRELAY_ALIPAY_PUBLIC_KEY", alipayPublicKey, false);
    return new AlipayChannelConfig(
        gatewayUrl,
        appId,
        appPrivateKey,
        alipayPublicKey,
        notifyUrl,
        ChannelSettings.CONNECT_TIMEOUT,
        ChannelSettings.READ_TIMEOUT);
  }

  /**
   * Production mode's rules for an active Alipay channel: every credential set (production never
   * starts a simulator), and an https gateway on a host other than loopback (the simulator serves
   * plain http on 127.0.0.1).
   *
   * @return one line per broken rule, each naming its setting; empty when Alipay is not active
   */
  List<String> productionRefusals() {
    return ChannelSettings.productionRefusals(
        "Alipay",
        active(),
        credentials(),
        "PAYRELAY_ALIPAY_GATEWAY_URL",
        gatewayUrl,
        ALIPAY_GATEWAY);
  }

  /** The private key stays out of logs. */
  @Override
  public String toString() {
    return "AlipaySettings[enabled=%s, appId=%s, gatewayUrl=%s, accounts=%s]"
        .formatted(enabled, appId, gatewayUrl, accounts);
  }
}

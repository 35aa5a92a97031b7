package dev.payrelay.app.config;

import dev.payrelay.app.config.mapping.ChannelMapping;
import dev.payrelay.channels.stripe.StripeChannelConfig;
import java.net.URI;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/**
 * The Stripe channel ({@link dev.payrelay.channels.stripe.StripeChannel}): one default merchant
 * account, our Stripe account, and the tenants' own accounts ({@link ChannelAccountsFile}). The
 * settings ({@code PAYRELAY_STRIPE_*}) are declared in {@link ChannelMapping.Stripe}.
 *
 * @param enabled true or false; null when unset, which means enabled when a credential is set, and
 *     under {@code payrelay dev} (and the test harness) enabled on an in-process simulator when
 *     none is
 * @param accountId our account ({@code acct_...}), the merchant id of every Stripe payment
 * @param apiKey the secret key ({@code sk_...})
 * @param webhookSecret the webhook endpoint's signing secret ({@code whsec_...})
 * @param apiBase Stripe's API
 * @param payPageUrl the merchant's page mounting Stripe's Payment Element
 * @param statementZone the account's reporting time zone, in which a statement day runs
 * @param accounts the tenants' own Stripe accounts, each served by an adapter with its credentials
 *     ({@link #forAccount}); empty when none
 */
public record StripeSettings(
    Boolean enabled,
    String accountId,
    String apiKey,
    String webhookSecret,
    URI apiBase,
    URI payPageUrl,
    ZoneId statementZone,
    List<ChannelAccountSettings> accounts) {

  /** Copies the accounts. */
  public StripeSettings {
    accounts = accounts == null ? List.of() : List.copyOf(accounts);
  }

  /** These settings with {@code tenantAccounts} as the tenants' own accounts. */
  StripeSettings withAccounts(List<ChannelAccountSettings> tenantAccounts) {
    return new StripeSettings(
        enabled,
        accountId,
        apiKey,
        webhookSecret,
        apiBase,
        payPageUrl,
        statementZone,
        tenantAccounts);
  }

  /**
   * The settings of a tenant's account: its merchant and credentials, the channel's other settings
   * (and its API address unless the account gives its own), no tenant accounts of its own.
   */
  public StripeSettings forAccount(ChannelAccountSettings account) {
    return new StripeSettings(
        true,
        account.merchantId(),
        account.credential("apiKey"),
        account.credential("webhookSecret"),
        account.credential("apiBase") == null ? apiBase : URI.create(account.credential("apiBase")),
        payPageUrl,
        statementZone,
        List.of());
  }

  /** Stripe's API. */
  public static final URI STRIPE_API = URI.create("https://api.stripe.com");

  /** The settings of {@code m}; {@code publicUrl} is the base of the default pay page URL. */
  static StripeSettings from(ChannelMapping.Stripe m, URI publicUrl) {
    return new StripeSettings(
        m.enabled().orElse(null),
        m.accountId().orElse(null),
        SecretSetting.read("PAYRELAY_STRIPE_API_KEY", m.apiKey(), m.apiKeyFile()),
        SecretSetting.read(
            "PAYRELAY_STRIPE_WEBHOOK_SECRET", m.webhookSecret(), m.webhookSecretFile()),
        m.apiBase(),
        m.payPageUrl()
            .orElseGet(() -> URI.create(publicUrl.toString().replaceAll("/$", "") + "/pay/stripe")),
        m.statementZone(),
        List.of());
  }

  /** The credentials, each with the setting it is read from, in the order messages name them. */
  private List<ChannelSettings.Credential> credentials() {
    return List.of(
        new ChannelSettings.Credential("PAYRELAY_STRIPE_ACCOUNT_ID", accountId),
        new ChannelSettings.Credential("PAYRELAY_STRIPE_API_KEY (or _FILE)", apiKey),
        new ChannelSettings.Credential("PAYRELAY_STRIPE_WEBHOOK_SECRET (or _FILE)", webhookSecret));
  }

  /** Whether the API and the worker serve Stripe: enabled, or unset with a credential set. */
  public boolean active() {
    return ChannelSettings.active(enabled, credentials());
  }

  /** Whether {@code payrelay dev} plays Stripe with its simulator: not disabled, no credential. */
  public boolean simulated() {
    return ChannelSettings.simulated(enabled, credentials());
  }

  /**
   * These settings pointed at a simulator: enabled, with its account, keys and base URL.
   *
   * @param apiBase the simulator's base URL
   */
  public StripeSettings onSimulator(String account, String key, String secret, URI apiBase) {
    return new StripeSettings(
        true, account, key, secret, apiBase, payPageUrl, statementZone, accounts);
  }

  /** The settings each missing credential is read from; empty when all are set. */
  List<String> missing() {
    return ChannelSettings.missing(credentials());
  }

  /**
   * The adapter's configuration: SDK default signature tolerance, 5 s connect and 30 s read
   * timeouts.
   *
   * @throws IllegalArgumentException naming the missing settings when a credential is not set
   */
  public StripeChannelConfig channelConfig() {
    ChannelSettings.requireComplete("Stripe", credentials());
    return new StripeChannelConfig(
        accountId,
        apiKey,
        webhookSecret,
        apiBase,
        payPageUrl,
        StripeChannelConfig.DEFAULT_TOLERANCE,
        ChannelSettings.CONNECT_TIMEOUT,
        ChannelSettings.READ_TIMEOUT,
        statementZone);
  }

  /**
   * Production mode's rules for an active Stripe channel: every credential set (production never
   * starts a simulator), and an https API base on a host other than loopback (the simulator serves
   * plain http on 127.0.0.1).
   *
   * @return one line per broken rule, each naming its setting; empty when Stripe is not active
   */
  public List<String> productionRefusals() {
    List<String> refusals =
        new ArrayList<>(
            ChannelSettings.productionRefusals(
                "Stripe",
                active(),
                credentials(),
                "PAYRELAY_STRIPE_API_BASE",
                apiBase,
                STRIPE_API));
    if (!active()) {
      return refusals;
    }
    // Stripe's key prefixes (docs.stripe.com/keys): sk_/rk_ then test_ or live_; whsec_ secrets.
    if (apiKey != null && !apiKey.startsWith("sk_live_") && !apiKey.startsWith("rk_live_")) {
      refusals.add(
          "PAYRELAY_STRIPE_API_KEY (or _FILE) is not a live secret or restricted key (sk_live_…,"
              + " rk_live_…); production moves real money");
    }
    if (webhookSecret != null && !webhookSecret.startsWith("whsec_")) {
      refusals.add(
          "PAYRELAY_STRIPE_WEBHOOK_SECRET (or _FILE) is not a Stripe endpoint secret (whsec_…)");
    }
    return refusals;
  }

  /** The secrets stay out of logs. */
  @Override
  public String toString() {
    return ("StripeSettings[enabled=%s, accountId=%s, apiBase=%s, payPageUrl=%s,"
            + " statementZone=%s, accounts=%s]")
        .formatted(enabled, accountId, apiBase, payPageUrl, statementZone, accounts);
  }
}

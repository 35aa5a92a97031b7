package dev.payrelay.app.config;

import dev.payrelay.ledger.db.DatabaseConfig;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The rules a long-running role ({@code api}, {@code worker}, {@code sandbox}) checks before it
 * starts in production mode ({@link PayrelayConfig#isProduction()}: a Temporal address set ({@code
 * PAYRELAY_TEMPORAL_ADDRESS}, {@code TEMPORAL_ADDRESS} or a {@code temporal.toml} profile) or
 * {@code PAYRELAY_PROFILE=prod}, and not {@code PAYRELAY_PROFILE=dev} or {@code test}). The rules
 * here refuse a credential that anyone can guess; {@link ExposureChecks} refuses what exposes
 * payrelay (admin routes on a public listener, payloads in clear, http URLs, the sandbox). Each
 * names the setting and never prints a secret. One-shot commands ({@code migrate}, {@code check},
 * ...) and {@code dev} are not checked.
 */
public final class ProductionChecks {

  /** The sandbox secret's default, published in docs/configuration.md and the source. */
  public static final String DEFAULT_SECRET = "sandbox-dev-secret-change-me";

  /**
   * The shortest channel secret accepted, in bytes (UTF-8): the output length of SHA-256, per RFC
   * 2104 section 3 ("less than L bytes is strongly discouraged" for an HMAC key).
   */
  static final int MIN_SECRET_BYTES = 32;

  /** The line the long-running roles' help gives production mode, within 80 columns. */
  public static final String HELP =
      "Refuses unsafe settings in production mode (docs/configuration.md: Production mode).";

  private ProductionChecks() {}

  /** The long-running roles, each with its own set of rules. */
  public enum Role {
    /** {@code payrelay api}: every rule, the API's own ({@link #apiRefusals}) too. */
    API,
    /** {@code payrelay worker}: the credential and exposure rules. */
    WORKER,
    /** {@code payrelay sandbox}: the simulator, which production mode never runs. */
    SANDBOX
  }

  /**
   * Refuses to go on when the configuration is in production mode and breaks a rule of the worker.
   *
   * @throws ProductionRefusedException listing every broken rule, one per line, each naming its
   *     setting
   */
  public static void enforce(PayrelayConfig config) {
    enforce(config, Role.WORKER);
  }

  /**
   * As {@link #enforce(PayrelayConfig)}, with {@code role}'s rules: the credential rules ({@link
   * #refusals}) for every role, then {@link ExposureChecks#refusals} for the API and the worker,
   * {@link #apiRefusals} for the API, {@link ExposureChecks#simulatorRefusal} for the sandbox.
   */
  public static void enforce(PayrelayConfig config, Role role) {
    if (!config.isProduction()) {
      return;
    }
    List<String> refusals = new ArrayList<>(refusals(config));
    if (role == Role.SANDBOX) {
      refusals.add(ExposureChecks.simulatorRefusal(config));
    } else {
      refusals.addAll(ExposureChecks.refusals(config));
    }
    if (role == Role.API) {
      refusals.addAll(apiRefusals(config));
    }
    if (!refusals.isEmpty()) {
      throw new ProductionRefusedException(reason(config), refusals);
    }
  }

  /**
   * Every rule {@code config} breaks, whether or not it is in production mode.
   *
   * @return one line per broken rule, each starting with the setting's name; empty when none
   */
  public static List<String> refusals(PayrelayConfig config) {
    List<String> refusals = new ArrayList<>();
    if (config.sandbox().enabled()) {
      sandboxSecrets(config.sandbox(), refusals);
    }
    refusals.addAll(config.stripe().productionRefusals());
    if (config.stripe().active()
        && config.sandbox().secret().equals(config.stripe().webhookSecret())) {
      // Both sign HMAC-SHA256 over "timestamp.body": one secret would let either sign for both.
      refusals.add(
          "PAYRELAY_STRIPE_WEBHOOK_SECRET (or _FILE) is the same secret as "
              + config.sandbox().secretSetting()
              + "; each channel needs its own");
    }
    refusals.addAll(config.alipay().productionRefusals());
    refusals.addAll(config.wechatpay().productionRefusals());
    // A tenant account meets its channel's rules, with its own credentials and API address.
    for (ChannelAccountSettings a : config.stripe().accounts()) {
      tenantRefusals(a, config.stripe().forAccount(a).productionRefusals(), refusals);
    }
    for (ChannelAccountSettings a : config.alipay().accounts()) {
      tenantRefusals(a, config.alipay().forAccount(a).productionRefusals(), refusals);
    }
    for (ChannelAccountSettings a : config.wechatpay().accounts()) {
      tenantRefusals(a, config.wechatpay().forAccount(a).productionRefusals(), refusals);
    }
    config.access().signalTokens().productionRefusal().ifPresent(refusals::add);
    databaseLogin(config.database()).ifPresent(refusals::add);
    amqpLogin(config.amqp().uri()).ifPresent(refusals::add);
    return refusals;
  }

  /** The sandbox's secrets, its default account's and its tenant accounts': one refusal each. */
  private static void sandboxSecrets(
      PayrelayConfig.SandboxSettings sandbox, List<String> refusals) {
    channelSecret(sandbox.secretSetting(), sandbox.secret()).ifPresent(refusals::add);
    for (ChannelAccountSettings account : sandbox.accounts()) {
      channelSecret(account.secretSource(), account.secret()).ifPresent(refusals::add);
    }
    sharedChannelSecret(sandbox).ifPresent(refusals::add);
  }

  /** Adds each of a tenant account's {@code found} refusals, naming the account first. */
  private static void tenantRefusals(
      ChannelAccountSettings account, List<String> found, List<String> refusals) {
    found.forEach(r -> refusals.add(account.secretSource() + ": " + r));
  }

  /**
   * The API's own rules: at least one API key (without any, every payment and admin request is
   * refused, which in production is a misconfiguration, not a state to run in), and a codec
   * endpoint open to callers without a key ({@code PAYRELAY_CODEC_AUTH=open}) only on a separate
   * admin listener: on the public one it would decrypt payment data for anyone; then {@link
   * ExposureChecks#listenerRefusals}.
   *
   * @return one line per broken rule, each starting with the setting's name; empty when none
   */
  public static List<String> apiRefusals(PayrelayConfig config) {
    List<String> refusals = new ArrayList<>();
    if (config.access().keys().isEmpty()) {
      refusals.add(
          "PAYRELAY_API_KEYS (or PAYRELAY_API_KEYS_FILE) holds no key; make one with payrelay"
              + " apikey");
    }
    if (config.access().codecOpen() && config.access().adminPort() == null) {
      refusals.add(
          "PAYRELAY_CODEC_AUTH=open without PAYRELAY_ADMIN_PORT would decrypt payloads for anyone"
              + " reaching the public listener; set an admin port or PAYRELAY_CODEC_AUTH=key");
    }
    refusals.addAll(ExposureChecks.listenerRefusals(config));
    return refusals;
  }

  /**
   * No two merchant accounts may share a secret: whoever holds one account's secret could then sign
   * callbacks the other account's payments accept, the very thing accounts per tenant prevent.
   */
  static Optional<String> sharedChannelSecret(PayrelayConfig.SandboxSettings sandbox) {
    java.util.Map<String, String> sourceBySecret = new java.util.HashMap<>();
    sourceBySecret.put(sandbox.secret(), sandbox.secretSetting());
    for (ChannelAccountSettings account : sandbox.accounts()) {
      String other = sourceBySecret.putIfAbsent(account.secret(), account.secretSource());
      if (other != null) {
        return Optional.of(
            account.secretSource()
                + " is the same secret as "
                + other
                + "; each merchant account needs its own");
      }
    }
    return Optional.empty();
  }

  /**
   * A channel's HMAC secret must be neither the published default nor empty, and at least {@link
   * #MIN_SECRET_BYTES} bytes: whoever knows it can sign a PAID callback for any payment it
   * verifies.
   *
   * @param setting where the secret comes from, named in the refusal
   */
  public static Optional<String> channelSecret(String setting, String secret) {
    if (secret == null || secret.isEmpty()) {
      return Optional.of(setting + " is empty; set a random secret of at least 32 bytes");
    }
    if (secret.equals(DEFAULT_SECRET)) {
      return Optional.of(
          setting + " is the published default; set the secret agreed with the channel");
    }
    int bytes = secret.getBytes(StandardCharsets.UTF_8).length;
    if (bytes < MIN_SECRET_BYTES) {
      return Optional.of(
          "%s is %d bytes; production needs at least %d (e.g. openssl rand -hex 32)"
              .formatted(setting, bytes, MIN_SECRET_BYTES));
    }
    return Optional.empty();
  }

  /**
   * The database login must have a password: {@code root} without one is the default of a fresh
   * MySQL/MariaDB install and of payrelay's local settings, and any user without one is a login
   * anyone reaching the database can use.
   */
  static Optional<String> databaseLogin(DatabaseConfig database) {
    if (!database.password().isEmpty()) {
      return Optional.empty();
    }
    if ("root".equals(database.user())) {
      return Optional.of(
          "PAYRELAY_DB_USER is root with an empty PAYRELAY_DB_PASSWORD; use a dedicated user"
              + " with a password");
    }
    return Optional.of(
        "PAYRELAY_DB_PASSWORD is empty for PAYRELAY_DB_USER "
            + database.user()
            + "; anyone reaching the database could log in as it; set its password");
  }

  /**
   * The AMQP URI must name a user other than {@code guest}, with a password: {@code guest} is
   * RabbitMQ's default user (password {@code guest}), which the Java client also logs in as when
   * the URI names no user (per the RabbitMQ URI spec and {@code ConnectionFactory} defaults).
   */
  static Optional<String> amqpLogin(String uri) {
    String user;
    String password;
    try {
      String userInfo = new URI(uri).getUserInfo();
      String[] login = userInfo == null ? new String[] {""} : userInfo.split(":", 2);
      user = login[0];
      password = login.length > 1 ? login[1] : "";
    } catch (URISyntaxException e) {
      return Optional.of("PAYRELAY_AMQP_URI is not a URI: " + e.getReason());
    }
    if (user.isEmpty()) {
      return Optional.of(
          "PAYRELAY_AMQP_URI names no user, so the client logs in as RabbitMQ's default guest;"
              + " name a dedicated user");
    }
    if (user.equals("guest")) {
      return Optional.of(
          "PAYRELAY_AMQP_URI logs in as RabbitMQ's default guest user; use a"
              + " dedicated user with a password");
    }
    if (password.isEmpty()) {
      return Optional.of("PAYRELAY_AMQP_URI logs in as " + user + " with an empty password");
    }
    return Optional.empty();
  }

  private static String reason(PayrelayConfig config) {
    return config.profile() == Profile.PROD
        ? "PAYRELAY_PROFILE=prod"
        : config.temporal().addressSource() + " is set";
  }

  /** Production mode met a broken rule; the message lists them all, one per line. */
  public static final class ProductionRefusedException extends RuntimeException {

    private final List<String> refusals;

    ProductionRefusedException(String why, List<String> refusals) {
      super(
          "production mode ("
              + why
              + "; PAYRELAY_PROFILE=dev turns it off for a local stack) refuses to start:\n  "
              + String.join("\n  ", refusals));
      this.refusals = List.copyOf(refusals);
    }

    /** The broken rules, each naming its setting. */
    public List<String> refusals() {
      return refusals;
    }
  }
}

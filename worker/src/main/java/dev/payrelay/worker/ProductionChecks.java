package dev.payrelay.worker;

import dev.payrelay.sql.DatabaseConfig;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The rules a long-running role ({@code api}, {@code worker}, {@code sandbox}) checks before it
 * starts in production mode ({@link PayrelayConfig#isProduction()}: {@code
 * PAYRELAY_TEMPORAL_ADDRESS} set or {@code PAYRELAY_PROFILE=prod}, and not {@code
 * PAYRELAY_PROFILE=dev}). Each rule refuses a credential that anyone can guess, naming the setting
 * and never printing a secret. One-shot commands ({@code migrate}, {@code check}, ...) and {@code
 * dev} are not checked.
 */
public final class ProductionChecks {

  /** The sandbox secret's default, published in the README and the source. */
  static final String DEFAULT_SECRET = "sandbox-dev-secret-change-me";

  /**
   * The shortest channel secret accepted, in bytes (UTF-8): the output length of SHA-256, per RFC
   * 2104 section 3 ("less than L bytes is strongly discouraged" for an HMAC key).
   */
  static final int MIN_SECRET_BYTES = 32;

  /** The line the long-running roles' help gives production mode, within 80 columns. */
  static final String HELP =
      "Refuses default credentials in production mode (README: Production mode).";

  private ProductionChecks() {}

  /**
   * Refuses to go on when the configuration is in production mode and breaks a rule.
   *
   * @throws ProductionRefusedException listing every broken rule, one per line, each naming its
   *     setting
   */
  static void enforce(PayrelayConfig config) {
    if (!config.isProduction()) {
      return;
    }
    List<String> refusals = refusals(config);
    if (!refusals.isEmpty()) {
      throw new ProductionRefusedException(reason(config), refusals);
    }
  }

  /**
   * Every rule {@code config} breaks, whether or not it is in production mode.
   *
   * @return one line per broken rule, each starting with the setting's name; empty when none
   */
  static List<String> refusals(PayrelayConfig config) {
    List<String> refusals = new ArrayList<>();
    channelSecret(config.sandbox().secretSetting(), config.sandbox().secret())
        .ifPresent(refusals::add);
    for (ChannelAccountSettings account : config.sandbox().accounts()) {
      channelSecret(account.secretSource(), account.secret()).ifPresent(refusals::add);
    }
    databaseLogin(config.database()).ifPresent(refusals::add);
    amqpLogin(config.amqp().uri()).ifPresent(refusals::add);
    return refusals;
  }

  /**
   * A channel's HMAC secret must be neither the published default nor empty, and at least {@link
   * #MIN_SECRET_BYTES} bytes: whoever knows it can sign a PAID callback for any payment it
   * verifies.
   *
   * @param setting where the secret comes from, named in the refusal
   */
  static Optional<String> channelSecret(String setting, String secret) {
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
   * The database login must not be {@code root} with an empty password: the default of a fresh
   * MySQL/MariaDB install and of payrelay's local settings.
   */
  static Optional<String> databaseLogin(DatabaseConfig database) {
    if ("root".equals(database.user()) && database.password().isEmpty()) {
      return Optional.of(
          "PAYRELAY_DB_USER is root with an empty PAYRELAY_DB_PASSWORD; use a dedicated user"
              + " with a password");
    }
    return Optional.empty();
  }

  /**
   * The AMQP URI must name a user other than {@code guest}: RabbitMQ's default user (password
   * {@code guest}), which the Java client also logs in as when the URI names no user (per the
   * RabbitMQ URI spec and {@code ConnectionFactory} defaults).
   */
  static Optional<String> amqpLogin(String uri) {
    String user;
    try {
      String userInfo = new URI(uri).getUserInfo();
      user = userInfo == null ? "" : userInfo.split(":", 2)[0];
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
    return Optional.empty();
  }

  private static String reason(PayrelayConfig config) {
    return config.profile() == Profile.PROD
        ? "PAYRELAY_PROFILE=prod"
        : "PAYRELAY_TEMPORAL_ADDRESS is set";
  }

  /** Production mode met a broken rule; the message lists them all, one per line. */
  static final class ProductionRefusedException extends RuntimeException {

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
    List<String> refusals() {
      return refusals;
    }
  }
}

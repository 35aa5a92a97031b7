package dev.payrelay.app.config;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What the settings of the channels with a vendor SDK (Stripe, Alipay, WeChat Pay) share: the
 * {@code PAYRELAY_<CHANNEL>_ENABLED} switch, their credentials' presence, the adapters' timeouts
 * and production mode's rules.
 */
final class ChannelSettings {

  /** How long an adapter waits to connect to its channel. */
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

  /** How long an adapter waits for its channel's answer. */
  static final Duration READ_TIMEOUT = Duration.ofSeconds(30);

  /**
   * A credential's setting and its value.
   *
   * @param setting where it is read, as a message names it, e.g. {@code PAYRELAY_STRIPE_API_KEY (or
   *     _FILE)}
   * @param value its value, or null when unset
   */
  record Credential(String setting, Object value) {}

  private ChannelSettings() {}

  /** Whether any of {@code credentials} is set. */
  static boolean anySet(List<Credential> credentials) {
    return credentials.stream().anyMatch(c -> c.value() != null);
  }

  /**
   * Whether the channel is served: {@code enabled}, or unset with a credential set ({@link
   * #anySet}).
   */
  static boolean active(Boolean enabled, List<Credential> credentials) {
    return Boolean.TRUE.equals(enabled) || (enabled == null && anySet(credentials));
  }

  /**
   * Whether {@code payrelay dev} plays the channel with its simulator: not disabled, no credential.
   */
  static boolean simulated(Boolean enabled, List<Credential> credentials) {
    return !Boolean.FALSE.equals(enabled) && !anySet(credentials);
  }

  /** The settings of the unset {@code credentials}, in their order; empty when all are set. */
  static List<String> missing(List<Credential> credentials) {
    return credentials.stream().filter(c -> c.value() == null).map(Credential::setting).toList();
  }

  /**
   * Throws unless every credential is set.
   *
   * @param channel the channel as people name it, e.g. {@code WeChat Pay}
   * @throws IllegalArgumentException naming the missing settings
   */
  static void requireComplete(String channel, List<Credential> credentials) {
    List<String> missing = missing(credentials);
    if (!missing.isEmpty()) {
      throw new IllegalArgumentException(
          channel + " is enabled but " + String.join(", ", missing) + " not set");
    }
  }

  /**
   * Production mode's rules every such channel shares when active: every credential set (production
   * never starts a simulator), and its API on an https URL of a host other than loopback (the
   * simulators serve plain http on 127.0.0.1).
   *
   * @param urlSetting the API address's setting, e.g. {@code PAYRELAY_STRIPE_API_BASE}
   * @param production the channel's own API address, suggested instead
   * @return one line per broken rule, each naming its setting; empty when none or not active
   */
  static List<String> productionRefusals(
      String channel,
      boolean active,
      List<Credential> credentials,
      String urlSetting,
      URI url,
      URI production) {
    List<String> refusals = new ArrayList<>();
    if (!active) {
      return refusals;
    }
    for (String setting : missing(credentials)) {
      refusals.add(
          setting + " is not set but " + channel + " is enabled; production runs no simulator");
    }
    if (ChannelUrls.isSimulatorLike(Objects.requireNonNull(url, urlSetting))) {
      refusals.add(
          urlSetting
              + " "
              + url
              + " is not an https URL of a remote host (a simulator's?); use "
              + production);
    }
    return refusals;
  }

  /**
   * Throws unless {@code value} is an RSA key: a private key in PKCS#8 (RFC 5208), or a public key
   * in X.509 SubjectPublicKeyInfo (RFC 5280), each DER in Base64 with or without PEM armour (RFC
   * 7468). Checked at start, so a key that cannot sign or verify stops the process naming its
   * setting instead of failing every request or callback later.
   *
   * @throws IllegalArgumentException naming {@code setting}, never the key
   */
  static void requireRsaKey(String setting, String value, boolean privateKey) {
    String base64 = value.replaceAll("-----(BEGIN|END) [A-Z ]+-----", "").replaceAll("\\s", "");
    try {
      byte[] der = java.util.Base64.getDecoder().decode(base64);
      java.security.KeyFactory rsa = java.security.KeyFactory.getInstance("RSA");
      if (privateKey) {
        rsa.generatePrivate(new java.security.spec.PKCS8EncodedKeySpec(der));
      } else {
        rsa.generatePublic(new java.security.spec.X509EncodedKeySpec(der));
      }
    } catch (IllegalArgumentException | java.security.GeneralSecurityException e) {
      throw new IllegalArgumentException(
          setting
              + " is not an RSA "
              + (privateKey ? "private key (PKCS#8" : "public key (X.509")
              + ", PEM or Base64 DER)");
    }
  }
}

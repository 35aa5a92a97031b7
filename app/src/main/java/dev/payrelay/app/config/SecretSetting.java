package dev.payrelay.app.config;

import java.nio.file.Path;
import java.util.Optional;

/**
 * A credential given either inline ({@code NAME}) or as a file ({@code NAME_FILE}, e.g. a mounted
 * Docker or Kubernetes secret), the two declared side by side in the mapping. The one reader of
 * every such pair.
 */
final class SecretSetting {

  private SecretSetting() {}

  /**
   * The inline value, or the content of the file (one trailing line break dropped, as {@code echo
   * secret > file} leaves it).
   *
   * @param name the inline setting's variable, e.g. {@code PAYRELAY_STRIPE_API_KEY}; the file's is
   *     {@code name + "_FILE"}
   * @return null when neither is set
   * @throws IllegalArgumentException when both are set, or the file is missing, unreadable or empty
   */
  static String read(String name, Optional<String> inline, Optional<Path> file) {
    if (file.isEmpty()) {
      return inline.orElse(null);
    }
    if (inline.isPresent()) {
      throw new IllegalArgumentException("set " + name + " or " + name + "_FILE, not both");
    }
    String secret = ChannelAccountsFile.readSecret(file.get());
    if (secret == null || secret.isEmpty()) {
      throw new IllegalArgumentException(
          name + "_FILE " + file.get() + " is missing, unreadable or empty");
    }
    return secret;
  }
}

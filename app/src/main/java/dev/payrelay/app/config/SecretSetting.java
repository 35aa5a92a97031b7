package dev.payrelay.app.config;

import java.nio.file.Path;
import java.util.Map;

/**
 * A credential given either inline ({@code NAME}) or as a file ({@code NAME_FILE}, e.g. a mounted
 * Docker or Kubernetes secret), as {@code PAYRELAY_SANDBOX_SECRET} is.
 */
final class SecretSetting {

  private SecretSetting() {}

  /**
   * The value of {@code name}, or the content of the file {@code name_FILE} names (one trailing
   * line break dropped).
   *
   * @return null when neither is set
   * @throws IllegalArgumentException when both are set, or the file is missing, unreadable or empty
   */
  static String read(Map<String, String> env, String name) {
    String inline = blankToNull(env.get(name));
    String file = blankToNull(env.get(name + "_FILE"));
    if (file == null) {
      return inline;
    }
    if (inline != null) {
      throw new IllegalArgumentException("set " + name + " or " + name + "_FILE, not both");
    }
    String secret = ChannelAccountsFile.readSecret(Path.of(file));
    if (secret == null || secret.isEmpty()) {
      throw new IllegalArgumentException(
          name + "_FILE " + file + " is missing, unreadable or empty");
    }
    return secret;
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value.trim();
  }
}

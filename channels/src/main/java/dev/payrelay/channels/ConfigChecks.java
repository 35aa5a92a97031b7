package dev.payrelay.channels;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * The checks the channel adapters' configuration records run on their components, each with the one
 * message an operator sees for it. Every check throws {@link NullPointerException} naming the
 * component when it is null.
 */
public final class ConfigChecks {

  private ConfigChecks() {}

  /**
   * @throws IllegalArgumentException {@code <name> must not be blank}
   */
  public static void requireText(String value, String name) {
    if (Objects.requireNonNull(value, name).isBlank()) {
      throw new IllegalArgumentException(name + " must not be blank");
    }
  }

  /**
   * @throws IllegalArgumentException {@code <name> must be an absolute http(s) URL: <uri>}
   */
  public static void requireHttp(URI uri, String name) {
    String scheme = Objects.requireNonNull(uri, name).getScheme();
    if (!uri.isAbsolute() || !("http".equals(scheme) || "https".equals(scheme))) {
      throw new IllegalArgumentException(name + " must be an absolute http(s) URL: " + uri);
    }
  }

  /**
   * @throws IllegalArgumentException {@code <name> must be positive}
   */
  public static void requirePositive(Duration value, String name) {
    if (Objects.requireNonNull(value, name).isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be positive");
    }
  }

  /**
   * For a timeout an SDK takes as {@code int} milliseconds.
   *
   * @throws IllegalArgumentException {@code <name> must be positive and fit int milliseconds}
   */
  public static void requireMillis(Duration value, String name) {
    Objects.requireNonNull(value, name);
    if (value.isNegative() || value.isZero() || value.toMillis() > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(name + " must be positive and fit int milliseconds");
    }
  }
}

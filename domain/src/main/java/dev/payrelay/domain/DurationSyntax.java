package dev.payrelay.domain;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one syntax of a duration wherever payrelay reads one: configuration (file and environment),
 * command-line options and API bodies. A duration is a whole number and its unit {@code ms}, {@code
 * s}, {@code m}, {@code h} or {@code d}, in any case: {@code 500ms}, {@code 30s}, {@code 10m},
 * {@code 2h}, {@code 7d}. No ISO-8601 and no bare number: a unit is never implied, so {@code --by
 * 30} is refused rather than read as 30 seconds.
 */
public final class DurationSyntax {

  private static final Pattern DURATION = Pattern.compile("(\\d{1,15})(ms|s|m|h|d)");

  /** The syntax in words, for messages and the reference. */
  public static final String WORDS =
      "a duration: a whole number and its unit ms, s, m, h or d (e.g. 500ms, 30s, 10m, 7d)";

  private DurationSyntax() {}

  /**
   * {@code text} as a duration, surrounding blanks ignored.
   *
   * @throws IllegalArgumentException "must be " + {@link #WORDS} when {@code text} is not in the
   *     syntax (the message never repeats the value: the caller names it, unless it is secret), or
   *     "is too long" when it does not fit a {@link Duration}
   */
  public static Duration parse(String text) {
    Matcher m = DURATION.matcher(text.trim().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new IllegalArgumentException("must be " + WORDS);
    }
    long n = Long.parseLong(m.group(1));
    try {
      return switch (m.group(2)) {
        case "ms" -> Duration.ofMillis(n);
        case "s" -> Duration.ofSeconds(n);
        case "m" -> Duration.ofMinutes(n);
        case "h" -> Duration.ofHours(n);
        default -> Duration.ofDays(n);
      };
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("is too long for a duration", e);
    }
  }

  /** {@code d} in the largest unit that writes it whole: {@code 30s}, {@code 10m}, {@code 7d}. */
  public static String format(Duration d) {
    long ms = d.toMillis();
    if (ms == 0) {
      return "0s";
    }
    long[] units = {86_400_000, 3_600_000, 60_000, 1_000, 1};
    String[] names = {"d", "h", "m", "s", "ms"};
    for (int i = 0; i < units.length; i++) {
      if (ms % units[i] == 0) {
        return ms / units[i] + names[i];
      }
    }
    throw new AssertionError(ms);
  }
}

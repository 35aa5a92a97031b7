package dev.payrelay.app.config.binder;

import dev.payrelay.domain.DurationSyntax;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one syntax of each kind of value, in the environment and in the file alike:
 *
 * <ul>
 *   <li>a boolean is {@code true} or {@code false} (any case); nothing else ({@code yes}, {@code
 *       1}, {@code on}) is taken for either;
 *   <li>an integer is decimal digits with an optional minus sign;
 *   <li>a duration is a whole number and its unit {@code ms}, {@code s}, {@code m}, {@code h} or
 *       {@code d}: {@code 500ms}, {@code 30s}, {@code 10m}, {@code 2h}, {@code 7d} (no ISO-8601, no
 *       bare number: a unit is never implied);
 *   <li>a size is a whole number and its unit {@code B}, {@code KiB}, {@code MiB} or {@code GiB};
 *   <li>a list of durations is comma-separated, {@code none} for the empty list.
 * </ul>
 *
 * Each parser throws an {@link IllegalArgumentException} whose message completes "SETTING ..." and
 * never repeats the value (the caller names the setting and, unless it is secret, the value).
 */
public final class Syntax {

  private static final Pattern SIZE = Pattern.compile("(\\d{1,15})(b|kib|mib|gib)");
  private static final Pattern INTEGER = Pattern.compile("-?\\d{1,10}");

  /** The duration syntax in words, for messages and the reference. */
  public static final String DURATION_WORDS = DurationSyntax.WORDS;

  /** The size syntax in words, for messages and the reference. */
  public static final String SIZE_WORDS =
      "a size: a whole number and its unit B, KiB, MiB or GiB (e.g. 4KiB, 64KiB)";

  private Syntax() {}

  /** {@code true} or {@code false}, any case. */
  public static boolean bool(String text) {
    return switch (text.trim().toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new IllegalArgumentException("must be true or false");
    };
  }

  /** A decimal {@code int}. */
  public static int integer(String text) {
    String t = text.trim();
    if (!INTEGER.matcher(t).matches()) {
      throw new IllegalArgumentException("must be an integer");
    }
    try {
      return Integer.parseInt(t);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("must be an integer from -2147483648 to 2147483647");
    }
  }

  /** A duration in the syntax above ({@link DurationSyntax#parse}). */
  public static Duration duration(String text) {
    return DurationSyntax.parse(text);
  }

  /** A size in the syntax above. */
  public static ByteSize size(String text) {
    Matcher m = SIZE.matcher(text.trim().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new IllegalArgumentException("must be " + SIZE_WORDS);
    }
    long n = Long.parseLong(m.group(1));
    int shift =
        switch (m.group(2)) {
          case "b" -> 0;
          case "kib" -> 10;
          case "mib" -> 20;
          default -> 30;
        };
    return new ByteSize(n << shift);
  }

  /** Comma-separated durations, {@code none} for none. */
  public static DurationList durations(String text) {
    if (text.trim().equalsIgnoreCase("none")) {
      return new DurationList(List.of());
    }
    List<Duration> values = new ArrayList<>();
    for (String part : text.split(",")) {
      try {
        values.add(duration(part));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "must be durations separated by commas, each " + DURATION_WORDS + ", or none");
      }
    }
    return new DurationList(values);
  }

  /** {@code d} in the largest unit that writes it whole: {@code 30s}, {@code 10m}, {@code 7d}. */
  public static String formatDuration(Duration d) {
    return DurationSyntax.format(d);
  }

  /** {@code bytes} in the largest unit that writes it whole: {@code 512B}, {@code 64KiB}. */
  public static String formatSize(long bytes) {
    String[] names = {"GiB", "MiB", "KiB"};
    for (int i = 0; i < names.length; i++) {
      int shift = 30 - 10 * i;
      if (bytes != 0 && bytes % (1L << shift) == 0) {
        return (bytes >> shift) + names[i];
      }
    }
    return bytes + "B";
  }
}

package dev.payrelay.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Durations on the command line: a whole number with a unit, {@code 90s}, {@code 10m}, {@code 2h},
 * {@code 7d} (a bare number is seconds), or ISO-8601 as {@link Duration#parse} reads it ({@code
 * PT10M}). Never negative, and at most {@link #MAX}: a longer look-back or age overflows the
 * database clock's arithmetic (microseconds in a {@code long}) and means nothing for payments.
 */
final class Durations implements ITypeConverter<Duration> {

  /** The longest duration accepted: 100 years of 365 days. */
  static final Duration MAX = Duration.ofDays(36_500);

  private static final Pattern SHORT = Pattern.compile("(\\d{1,9})\\s*(s|m|h|d)?");

  @Override
  public Duration convert(String value) {
    String text = value.trim().toLowerCase(Locale.ROOT);
    Duration d = text.startsWith("p") ? iso(value) : shortForm(text, value);
    if (d.isNegative()) {
      throw new TypeConversionException("'" + value + "' is negative");
    }
    if (d.compareTo(MAX) > 0) {
      throw new TypeConversionException("'" + value + "' is longer than 36500d");
    }
    return d;
  }

  private static Duration shortForm(String text, String value) {
    Matcher m = SHORT.matcher(text);
    if (!m.matches()) {
      throw new TypeConversionException(
          "'" + value + "' is not a duration: use e.g. 90s, 10m, 2h, 7d or PT10M");
    }
    long n = Long.parseLong(m.group(1));
    String unit = m.group(2) == null ? "s" : m.group(2);
    return switch (unit) {
      case "m" -> Duration.ofMinutes(n);
      case "h" -> Duration.ofHours(n);
      case "d" -> Duration.ofDays(n);
      default -> Duration.ofSeconds(n);
    };
  }

  private static Duration iso(String value) {
    try {
      return Duration.parse(value.trim().toUpperCase(Locale.ROOT));
    } catch (DateTimeParseException e) {
      throw new TypeConversionException("'" + value + "' is not an ISO-8601 duration");
    }
  }
}

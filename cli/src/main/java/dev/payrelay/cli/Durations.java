package dev.payrelay.cli;

import dev.payrelay.domain.DurationSyntax;
import java.time.Duration;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Durations on the command line, in the configuration's one syntax ({@link DurationSyntax}): a
 * whole number and its unit, {@code 500ms}, {@code 90s}, {@code 10m}, {@code 2h}, {@code 7d}; a
 * bare number or ISO-8601 is refused. At most {@link #MAX}: a longer look-back or age overflows the
 * database clock's arithmetic (microseconds in a {@code long}) and means nothing for payments.
 */
final class Durations implements ITypeConverter<Duration> {

  /** The longest duration accepted: 100 years of 365 days. */
  static final Duration MAX = Duration.ofDays(36_500);

  @Override
  public Duration convert(String value) {
    Duration d;
    try {
      d = DurationSyntax.parse(value);
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException("'" + value + "' " + e.getMessage());
    }
    if (d.compareTo(MAX) > 0) {
      throw new TypeConversionException("'" + value + "' is longer than 36500d");
    }
    return d;
  }
}

package dev.payrelay.app.config.binder;

import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A list of durations, written comma-separated in the duration syntax ({@code 1s,5s,30s,2m}), or
 * {@code none} for the empty list ({@link Syntax#durations}).
 *
 * @param values the durations in their order; may be empty
 */
public record DurationList(List<Duration> values) {

  /** Copies the values. */
  public DurationList {
    values = List.copyOf(values);
  }

  /** The list as written: {@code none} when empty. */
  @Override
  public String toString() {
    return values.isEmpty()
        ? "none"
        : values.stream().map(Syntax::formatDuration).collect(Collectors.joining(","));
  }
}

package dev.payrelay.app.config.binder;

import io.smallrye.config.ConfigValue;
import io.smallrye.config.SmallRyeConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.config.spi.Converter;

/**
 * Checks every set value against its setting's type and {@link Doc} bounds and step, so a start
 * refuses all the mistyped and out-of-bounds values at once, each named as it was given ({@code
 * PAYRELAY_API_PORT}, or {@code payrelay.api.port} with its file). A secret's value is never
 * repeated.
 */
final class SettingsCheck {

  private SettingsCheck() {}

  /** One line per bad value, in the settings' order; empty when all are good. */
  static List<String> problems(SmallRyeConfig config, List<Setting> settings, Sources sources) {
    List<String> problems = new ArrayList<>();
    for (Setting s : settings) {
      ConfigValue value = config.getConfigValue(s.property());
      if (value == null || value.getValue() == null || value.getValue().isBlank()) {
        continue;
      }
      check(config, s, value).ifPresent(why -> problems.add(sources.label(s, value) + " " + why));
    }
    return problems;
  }

  private static Optional<String> check(SmallRyeConfig config, Setting s, ConfigValue value) {
    String raw = value.getValue();
    String got = s.secret() ? "" : ", got: " + raw.trim();
    Converter<?> converter = converter(config, s.type());
    Object parsed;
    try {
      parsed = converter.convert(raw);
    } catch (IllegalArgumentException e) {
      return Optional.of(e.getMessage() + got);
    }
    return bounds(converter, s.doc(), parsed).map(why -> why + got);
  }

  /** The converter SmallRye Config binds {@code type} with: ours ({@link PayrelayConverters}). */
  private static Converter<?> converter(SmallRyeConfig config, Class<?> type) {
    Optional<? extends Converter<?>> registered = config.getConverter(type);
    return registered.isPresent() ? registered.get() : (Converter<String>) String::valueOf;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Optional<String> bounds(Converter<?> converter, Doc doc, Object value) {
    if (!(value instanceof Comparable c)) {
      return Optional.empty();
    }
    Comparable min = doc.min().isEmpty() ? null : (Comparable) converter.convert(doc.min());
    Comparable max = doc.max().isEmpty() ? null : (Comparable) converter.convert(doc.max());
    boolean low = min != null && c.compareTo(min) < 0;
    boolean high = max != null && c.compareTo(max) > 0;
    if (low || high) {
      if (min != null && max != null) {
        return Optional.of("must be from " + doc.min() + " to " + doc.max());
      }
      return Optional.of(low ? "must be at least " + doc.min() : "must be at most " + doc.max());
    }
    if (!doc.step().isEmpty() && value instanceof Duration d) {
      Duration step = (Duration) converter.convert(doc.step());
      if (d.toMillis() % step.toMillis() != 0) {
        return Optional.of("must be a whole multiple of " + doc.step());
      }
    }
    return Optional.empty();
  }
}

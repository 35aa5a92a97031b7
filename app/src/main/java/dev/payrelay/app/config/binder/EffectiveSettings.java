package dev.payrelay.app.config.binder;

import dev.payrelay.ledger.db.DatabaseConfig;
import java.util.List;

/**
 * Every setting's effective value and where it came from, as {@code payrelay config} prints them:
 * secrets masked ({@link Doc.Mask}), a URL's password masked.
 */
public final class EffectiveSettings {

  /** What a secret that is set is shown as. */
  public static final String MASK = "****";

  /**
   * One setting's effective value.
   *
   * @param property its name in the file
   * @param env its environment variable
   * @param value the value as given or defaulted, masked as its {@link Doc} says; null when unset
   * @param source {@code env PAYRELAY_...}, {@code file <path>[, %profile]}, {@code default} or
   *     {@code unset}
   * @param defaultText the default in words, for an unset setting
   */
  public record Row(String property, String env, String value, String source, String defaultText) {}

  private EffectiveSettings() {}

  /** The rows of {@code binding}, in the settings' order. */
  public static List<Row> of(Binding binding) {
    return SettingsModel.settings().stream()
        .map(
            s ->
                new Row(
                    s.property(),
                    s.env(),
                    shown(s, binding.raw(s)),
                    binding.source(s),
                    s.defaultText()))
        .toList();
  }

  /** {@code raw} as {@code payrelay config} shows it. */
  static String shown(Setting s, String raw) {
    if (raw == null) {
      return null;
    }
    return switch (s.doc().mask()) {
      case SECRET -> MASK;
      case URL_PASSWORD -> DatabaseConfig.withoutSecrets(raw.trim());
      case NONE -> raw.trim();
    };
  }
}

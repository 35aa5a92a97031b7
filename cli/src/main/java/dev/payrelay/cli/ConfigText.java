package dev.payrelay.cli;

import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.config.TemporalClientConfig;
import dev.payrelay.app.config.binder.Binding;
import dev.payrelay.app.config.binder.EffectiveSettings;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The text of {@code payrelay config}: a heading, the Temporal client, one line per setting. */
final class ConfigText {

  private ConfigText() {}

  /** Prints {@code binding}'s settings; {@code config} is null when it could not be built. */
  static void print(PrintWriter out, Binding binding, PayrelayConfig config) {
    out.println("configuration" + summary(binding, config));
    Map<String, ConfigCommand.TemporalValue> temporal = temporal(binding);
    if (!temporal.isEmpty()) {
      out.println("Temporal client (PAYRELAY_TEMPORAL_* over TEMPORAL_* and temporal.toml):");
      temporal.forEach(
          (field, v) ->
              out.printf(
                  "  %-10s %s  (%s)%n", field, v.value() == null ? "-" : v.value(), v.source()));
    }
    List<EffectiveSettings.Row> rows =
        EffectiveSettings.of(binding).stream()
            .sorted(java.util.Comparator.comparing(EffectiveSettings.Row::env))
            .toList();
    int width = rows.stream().mapToInt(r -> r.env().length()).max().orElse(0);
    for (EffectiveSettings.Row r : rows) {
      String source =
          r.value() != null
              ? r.source()
              : r.defaultText().equals("unset") ? "unset" : "unset: " + r.defaultText();
      out.printf(
          "%-" + width + "s  %s  (%s)%n", r.env(), r.value() == null ? "-" : r.value(), source);
    }
  }

  /** {@code file payrelay.yaml, profile prod, production mode}. */
  static String summary(Binding binding, PayrelayConfig config) {
    if (binding == null) {
      return "";
    }
    return ": file "
        + binding.file().map(Object::toString).orElse("none")
        + ", profile "
        + binding.profile().name().toLowerCase(java.util.Locale.ROOT)
        + (config == null
            ? ""
            : config.isProduction() ? ", production mode" : ", not production mode");
  }

  /** The Temporal client's address, namespace and API key (masked) with their sources. */
  static Map<String, ConfigCommand.TemporalValue> temporal(Binding binding) {
    Map<String, ConfigCommand.TemporalValue> values = new LinkedHashMap<>();
    TemporalClientConfig client;
    try {
      client = TemporalClientConfig.resolve(binding);
    } catch (IllegalArgumentException e) {
      return values;
    }
    values.put(
        "address",
        ConfigCommand.TemporalValue.of(
            client, "address", client.address() == null ? "local server" : client.address()));
    values.put(
        "namespace", ConfigCommand.TemporalValue.of(client, "namespace", client.namespace()));
    values.put(
        "apiKey",
        ConfigCommand.TemporalValue.of(
            client, "apiKey", client.apiKey() == null ? null : EffectiveSettings.MASK));
    return values;
  }
}

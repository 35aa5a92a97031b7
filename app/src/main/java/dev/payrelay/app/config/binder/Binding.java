package dev.payrelay.app.config.binder;

import dev.payrelay.app.config.Profile;
import dev.payrelay.app.config.mapping.PayrelayMapping;
import io.smallrye.config.ConfigValue;
import io.smallrye.config.SmallRyeConfig;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * A checked configuration: the bound mapping, where each value came from, and the environment it
 * was read from (for what reads more of it: Temporal's own {@code TEMPORAL_*} client configuration,
 * the channel accounts file's {@code secretEnv} names).
 *
 * @param mapping the settings, every value already checked ({@link Binder#bind})
 * @param config the SmallRye Config the mapping was bound from
 * @param file the configuration file read, if any
 * @param profile the profile whose file section applies ({@link Profile#AUTO}: none)
 * @param env the whole environment given to the binder
 */
public record Binding(
    PayrelayMapping mapping,
    SmallRyeConfig config,
    Optional<Path> file,
    Profile profile,
    Map<String, String> env) {

  /** Copies the environment. */
  public Binding {
    env = Map.copyOf(env);
  }

  /**
   * Where {@code setting}'s value came from: {@code env PAYRELAY_...}, {@code file ...}, {@code
   * default} or {@code unset}.
   */
  public String source(Setting setting) {
    return new Sources(file.orElse(null)).describe(setting, value(setting));
  }

  /**
   * {@code setting} as the user gave it, to name in a message: {@code PAYRELAY_API_PORT}, or {@code
   * payrelay.api.port (payrelay.yaml, %prod)} when the file set it.
   */
  public String label(Setting setting) {
    return new Sources(file.orElse(null)).label(setting, value(setting));
  }

  /** {@code setting}'s value as given (before conversion), or null when unset. */
  public String raw(Setting setting) {
    ConfigValue v = value(setting);
    return v == null ? null : v.getValue();
  }

  private ConfigValue value(Setting setting) {
    return io.smallrye.config.Expressions.withoutExpansion(
        () -> config.getConfigValue(setting.property()));
  }
}

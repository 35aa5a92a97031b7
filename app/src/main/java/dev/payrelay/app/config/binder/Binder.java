package dev.payrelay.app.config.binder;

import dev.payrelay.app.config.Profile;
import dev.payrelay.app.config.mapping.PayrelayMapping;
import io.smallrye.config.EnvConfigSource;
import io.smallrye.config.Expressions;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * Binds {@link PayrelayMapping} with SmallRye Config from the {@code PAYRELAY_*} environment and
 * the configuration file ({@link ConfigFile}), the environment winning, the file's section of the
 * profile ({@code PAYRELAY_PROFILE}, or the file's own {@code payrelay.profile}) over its other
 * keys. Before anything is bound it refuses, all at once: unknown and renamed names in either
 * ({@link UnknownSettings}), and values of the wrong type or out of their bounds ({@link
 * SettingsCheck}). A blank variable counts as unset (compose's {@code ${X:-}}); values are trimmed;
 * {@code ${...}} is not expanded, so a secret may hold any character.
 */
public final class Binder {

  /** The variable naming the configuration file. */
  public static final String CONFIG_FILE = "PAYRELAY_CONFIG_FILE";

  private static final String PREFIX = "PAYRELAY_";

  private Binder() {}

  /**
   * Binds the configuration of {@code env}.
   *
   * @param env the process's environment (only {@code PAYRELAY_*} names are payrelay's)
   * @throws ConfigProblems listing every problem found
   */
  public static Binding bind(Map<String, String> env) {
    return Expressions.withoutExpansion(() -> bindUnexpanded(env));
  }

  private static Binding bindUnexpanded(Map<String, String> env) {
    Map<String, String> payrelay = payrelayVariables(env);
    List<String> problems = new ArrayList<>(UnknownSettings.inEnvironment(payrelay));
    problems.addAll(UnknownSettings.nearMisses(env, PREFIX));
    Optional<Path> file = ConfigFile.locate(payrelay);
    Optional<ConfigSource> fileSource = file.flatMap(f -> ConfigFile.read(f, problems));
    fileSource.ifPresent(
        s -> problems.addAll(UnknownSettings.inFile(s.getName(), s.getPropertyNames())));
    Profile profile = profile(payrelay, fileSource);
    SmallRyeConfig unbound = build(payrelay, fileSource, profile, false);
    Sources sources = new Sources(fileSource.isPresent() ? file.get() : null);
    problems.addAll(SettingsCheck.problems(unbound, SettingsModel.settings(), sources));
    if (!problems.isEmpty()) {
      throw new ConfigProblems(problems);
    }
    SmallRyeConfig config = build(payrelay, fileSource, profile, true);
    return new Binding(
        config.getConfigMapping(PayrelayMapping.class),
        config,
        fileSource.isPresent() ? file : Optional.empty(),
        profile,
        env);
  }

  /** The {@code PAYRELAY_*} variables that are not blank, trimmed. */
  private static Map<String, String> payrelayVariables(Map<String, String> env) {
    Map<String, String> payrelay = new TreeMap<>();
    env.forEach(
        (name, value) -> {
          if (name.startsWith(PREFIX) && value != null && !value.isBlank()) {
            payrelay.put(name, value.trim());
          }
        });
    return payrelay;
  }

  /** The profile the environment or the file names; {@link Profile#AUTO} when neither does. */
  private static Profile profile(Map<String, String> payrelay, Optional<ConfigSource> file) {
    String named = payrelay.get("PAYRELAY_PROFILE");
    if (named == null && file.isPresent()) {
      named = file.get().getValue("payrelay.profile");
    }
    if (named == null || named.isBlank()) {
      return Profile.AUTO;
    }
    try {
      return PayrelayConverters.PROFILES.parse(named);
    } catch (IllegalArgumentException e) {
      // SettingsCheck refuses the value, naming where it was given.
      return Profile.AUTO;
    }
  }

  private static SmallRyeConfig build(
      Map<String, String> payrelay,
      Optional<ConfigSource> file,
      Profile profile,
      boolean withMapping) {
    SmallRyeConfigBuilder builder =
        PayrelayConverters.register(new SmallRyeConfigBuilder())
            .withSources(new EnvConfigSource(payrelay, EnvConfigSource.ORDINAL))
            .withValidateUnknown(false);
    file.ifPresent(builder::withSources);
    if (profile != Profile.AUTO) {
      builder.withProfile(Choice.word(profile));
    }
    if (withMapping) {
      builder.withMapping(PayrelayMapping.class);
    }
    return builder.build();
  }
}

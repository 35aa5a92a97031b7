package dev.payrelay.app.config.binder;

import io.smallrye.config.ConfigValue;
import io.smallrye.config.EnvConfigSource;
import java.nio.file.Path;

/**
 * Where a value came from, in the words messages and {@code payrelay config} use: the environment
 * variable, the file (with its profile section), or the setting's default.
 *
 * @param file the configuration file, or null when none is read
 */
record Sources(Path file) {

  /** The name of the file's config source: its path as given. */
  String fileSourceName() {
    return file == null ? "" : file.toString();
  }

  /**
   * The setting as the user gave it, to name in a refusal: {@code PAYRELAY_API_PORT}, or {@code
   * payrelay.api.port (payrelay.yaml, %prod)}.
   */
  String label(Setting s, ConfigValue value) {
    if (fromFile(value)) {
      return s.property() + " (" + file + profile(value) + ")";
    }
    return s.env();
  }

  /**
   * {@code env PAYRELAY_API_PORT}, {@code file payrelay.yaml %prod}, {@code default} or {@code
   * unset}.
   */
  String describe(Setting s, ConfigValue value) {
    if (value == null || value.getValue() == null) {
      return "unset";
    }
    if (fromFile(value)) {
      return "file " + file + profile(value);
    }
    if (EnvConfigSource.NAME.equals(value.getConfigSourceName())) {
      return "env " + s.env();
    }
    return "default";
  }

  private boolean fromFile(ConfigValue value) {
    return file != null && fileSourceName().equals(value.getConfigSourceName());
  }

  private static String profile(ConfigValue value) {
    return value.getProfile() == null ? "" : ", %" + value.getProfile();
  }
}

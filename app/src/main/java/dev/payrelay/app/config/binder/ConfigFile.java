package dev.payrelay.app.config.binder;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.source.yaml.YamlConfigSource;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * The configuration file: {@code PAYRELAY_CONFIG_FILE} when set (it must exist), else {@code
 * ./payrelay.yaml} when it exists. YAML ({@code .yaml}, {@code .yml}) or Java properties ({@code
 * .properties}); profile sections as top-level {@code "%dev"}, {@code "%test"}, {@code "%prod"}
 * keys (YAML) or {@code %prod.payrelay...} names (properties). The environment wins over the file.
 */
final class ConfigFile {

  /** The file's ordinal: below the environment's ({@code EnvConfigSource.ORDINAL}, 300). */
  static final int ORDINAL = 250;

  /** The file read when {@code PAYRELAY_CONFIG_FILE} is unset and it exists. */
  static final Path DEFAULT = Path.of("payrelay.yaml");

  private ConfigFile() {}

  /** The file to read, if any: {@code PAYRELAY_CONFIG_FILE}'s, else the default when it exists. */
  static Optional<Path> locate(Map<String, String> payrelayEnv) {
    String named = payrelayEnv.get(Binder.CONFIG_FILE);
    if (named != null) {
      return Optional.of(Path.of(named));
    }
    return Files.isRegularFile(DEFAULT) ? Optional.of(DEFAULT) : Optional.empty();
  }

  /**
   * The file as a config source named by its path.
   *
   * @param problems where a file that cannot be read or parsed is reported
   * @return empty when it could not be read
   */
  static Optional<ConfigSource> read(Path file, List<String> problems) {
    String name = file.toString();
    try {
      if (name.endsWith(".properties")) {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
          properties.load(reader);
        }
        return Optional.of(new PropertiesConfigSource(properties, name, ORDINAL));
      }
      if (!name.endsWith(".yaml") && !name.endsWith(".yml")) {
        problems.add(Binder.CONFIG_FILE + " " + file + " must end in .yaml, .yml or .properties");
        return Optional.empty();
      }
      return Optional.of(
          new YamlConfigSource(name, Files.readString(file, StandardCharsets.UTF_8), ORDINAL));
    } catch (IOException e) {
      problems.add(
          Binder.CONFIG_FILE
              + " "
              + file.toAbsolutePath()
              + (e instanceof java.nio.file.NoSuchFileException
                  ? " does not exist"
                  : " cannot be read: " + e.getMessage()));
    } catch (RuntimeException e) {
      problems.add(Binder.CONFIG_FILE + " " + file + " is not valid YAML: " + oneLine(e));
    }
    return Optional.empty();
  }

  private static String oneLine(RuntimeException e) {
    return String.join(" ", String.valueOf(e.getMessage()).strip().split("\\s*\\n\\s*"));
  }
}

package dev.payrelay.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.app.config.binder.ConfigurationReference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The committed configuration reference is the one the mapping generates. */
class ConfigurationReferenceTest {

  /** The repository's root: the tests run in the module's directory. */
  private static final Path FILE = Path.of("..").resolve(ConfigurationReference.FILE);

  @Test
  void theCommittedReference_isWhatTheMappingGenerates() throws Exception {
    String generated = ConfigurationReference.markdown();
    if (Boolean.getBoolean("payrelay.reference.write")) {
      Files.writeString(FILE, generated, StandardCharsets.UTF_8);
    }
    assertThat(Files.exists(FILE))
        .as("%s is missing; write it with:%n  %s", FILE, ConfigurationReference.REGENERATE)
        .isTrue();
    assertThat(Files.readString(FILE, StandardCharsets.UTF_8))
        .as(
            "docs/configuration-reference.md differs from what the mapping generates; rewrite it"
                + " with:%n  %s",
            ConfigurationReference.REGENERATE)
        .isEqualTo(generated);
  }

  @Test
  void theReference_listsEverySettingWithItsVariableAndKey() {
    String md = ConfigurationReference.markdown();
    assertThat(md)
        .contains("`PAYRELAY_API_PORT`<br>`payrelay.api.port` | integer | `8080` | 0..65535")
        .contains("`PAYRELAY_QUERY_GRACE`<br>`payrelay.query.grace` | duration | `30s` | 0s..")
        .contains("| `PAYRELAY_QUERY_GRACE_SECONDS` | `PAYRELAY_QUERY_GRACE` |")
        .contains("| `PAYRELAY_HEAP` |")
        .contains("| `TEMPORAL_ADDRESS` | `PAYRELAY_TEMPORAL_ADDRESS` |");
  }
}

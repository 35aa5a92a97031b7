package dev.payrelay.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.temporal.TemporalConnection;
import dev.payrelay.devstack.DevStack;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * What {@code payrelay dev} writes that holds state or keys is owner-only: its data folder 0700,
 * the Temporal dev server's SQLite store and log and dev's API key 0600. Real Temporal CLI.
 */
class PrivateFilesTest {

  private static Path dataDir() {
    return Path.of("target", "private-files-" + UUID.randomUUID(), ".payrelay");
  }

  private static String mode(Path p) {
    try {
      return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void devsApiKey_isOwnerOnly_inAnOwnerOnlyDataFolder() throws Exception {
    Path dir = dataDir();

    DevStack.devKey(dir.resolve(PayrelayConfig.AccessSettings.DEV_KEY_FILE));

    assertThat(mode(dir.resolve(PayrelayConfig.AccessSettings.DEV_KEY_FILE)))
        .isEqualTo("rw-------");
    assertThat(mode(dir)).isEqualTo("rwx------");
  }

  @Test
  void theTemporalDevServersStoreAndLog_areOwnerOnly_evenWhereAnOlderRunLeftThemOpen()
      throws Exception {
    Path dir = dataDir();
    Files.createDirectories(
        dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
    Path log = Files.createFile(dir.resolve("temporal.log"));
    Files.setPosixFilePermissions(log, PosixFilePermissions.fromString("rw-r--r--"));
    Map<String, String> env = new HashMap<>();
    env.put("PAYRELAY_DATA_DIR", dir.toString());
    env.put("PAYRELAY_TEMPORAL_PORT", String.valueOf(PayrelayHarness.freePort()));
    env.put("PAYRELAY_TEMPORAL_UI_PORT", String.valueOf(PayrelayHarness.freePort()));
    env.put(
        "PAYRELAY_TEMPORAL_CLI", System.getenv().getOrDefault("PAYRELAY_TEMPORAL_CLI", "temporal"));

    try (TemporalConnection temporal =
        TemporalConnection.open(PayrelayConfig.fromEnv(env).temporal())) {
      assertThat(temporal.kind()).isEqualTo(TemporalConnection.Kind.DEV_SERVER);
      assertThat(mode(dir)).isEqualTo("rwx------");
      assertThat(mode(dir.resolve("temporal.db"))).isEqualTo("rw-------");
      assertThat(mode(log)).isEqualTo("rw-------");
      try (var files = Files.list(dir)) {
        assertThat(files)
            .allSatisfy(f -> assertThat(mode(f)).as(f.toString()).isEqualTo("rw-------"));
      }
    }
  }
}

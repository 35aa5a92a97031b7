package dev.payrelay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.app.config.PayrelayConfig;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CLI finding a running {@code payrelay dev} through its state file. */
class DevStateTest {

  @TempDir Path dir;

  private final StringWriter notes = new StringWriter();
  private final PrintWriter err = new PrintWriter(notes, true);

  private static DevState state(long pid) {
    return new DevState(
        pid,
        "http://127.0.0.1:18080",
        18080,
        "http://127.0.0.1:18233",
        "127.0.0.1:17233",
        "default",
        "prk_dev_key");
  }

  @Test
  void liveDev_givesItsAddressAndKey_whenTheEnvironmentNamesNeither() throws Exception {
    Path file = DevState.file(dir);
    state(ProcessHandle.current().pid()).write(file);

    PayrelayConfig.AccessSettings access =
        DevState.apply(PayrelayConfig.fromEnv(Map.of()).access(), Map.of(), file, err);

    assertThat(Files.getPosixFilePermissions(file))
        .isEqualTo(PosixFilePermissions.fromString("rw-------"));
    assertThat(access.adminUrl()).isEqualTo(URI.create("http://127.0.0.1:18080"));
    assertThat(access.clientKey()).isEqualTo("prk_dev_key");
    assertThat(access.clientKeySource()).contains("dev.json");
    assertThat(notes.toString()).isEmpty();
  }

  @Test
  void exportedPortAndKey_winOverTheFile() throws Exception {
    Path file = DevState.file(dir);
    state(ProcessHandle.current().pid()).write(file);
    Map<String, String> env = Map.of("PAYRELAY_API_PORT", "9999", "PAYRELAY_API_KEY", "prk_mine");

    PayrelayConfig.AccessSettings access =
        DevState.apply(PayrelayConfig.fromEnv(env).access(), env, file, err);

    assertThat(access.adminUrl()).isEqualTo(URI.create("http://127.0.0.1:9999"));
    assertThat(access.clientKey()).isEqualTo("prk_mine");
  }

  @Test
  void staleFile_ofADeadProcess_isIgnoredWithOneNote() throws Exception {
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    Path file = DevState.file(dir);
    state(gone.pid()).write(file);
    PayrelayConfig.AccessSettings configured = PayrelayConfig.fromEnv(Map.of()).access();

    PayrelayConfig.AccessSettings access = DevState.apply(configured, Map.of(), file, err);

    assertThat(access.adminUrl()).isEqualTo(configured.adminUrl());
    assertThat(access.clientKey()).isNotEqualTo("prk_dev_key");
    assertThat(notes.toString().lines())
        .singleElement()
        .asString()
        .contains("ignoring " + file)
        .contains("pid " + gone.pid() + ") is not running");
  }
}

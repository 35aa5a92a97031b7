package dev.payrelay.cli;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.config.PrivateFiles;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * What a running {@code payrelay dev} tells the CLI in other shells: the file {@code <data
 * dir>/dev.json} (owner-only, 0600), written once dev listens and deleted when it stops. The admin
 * client reads it when the environment names no admin address ({@code PAYRELAY_ADMIN_URL}, {@code
 * PAYRELAY_ADMIN_PORT}, {@code PAYRELAY_API_PORT}) and no key ({@code PAYRELAY_API_KEY}, {@code
 * PAYRELAY_API_KEY_FILE}); a file whose process is no longer alive (dev killed with -9) is ignored
 * with a one-line note.
 *
 * @param pid dev's process id
 * @param adminUrl where its admin API answers, e.g. {@code http://127.0.0.1:8080}
 * @param apiPort its API listener's port
 * @param uiUrl its Temporal Web UI, or null without one
 * @param temporalAddress the Temporal frontend it uses, host:port
 * @param namespace its Temporal namespace
 * @param apiKey the admin key dev made for itself, or null when keys were configured
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record DevState(
    long pid,
    String adminUrl,
    int apiPort,
    String uiUrl,
    String temporalAddress,
    String namespace,
    String apiKey) {

  /** The file's name under the data directory. */
  public static final String FILE = "dev.json";

  private static final ObjectMapper JSON =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  /** The variables that name the admin API's address; any of them set and the file is not read. */
  static final java.util.List<String> ADDRESS_VARIABLES =
      java.util.List.of("PAYRELAY_ADMIN_URL", "PAYRELAY_ADMIN_PORT", "PAYRELAY_API_PORT");

  /** Where dev with data directory {@code dataDir} keeps its state file. */
  public static Path file(Path dataDir) {
    return dataDir.resolve(FILE);
  }

  /**
   * Writes this state to {@code file}, owner-only.
   *
   * @throws UncheckedIOException when it cannot be written
   */
  public void write(Path file) {
    try {
      PrivateFiles.folder(file.toAbsolutePath().getParent());
      Files.writeString(
          PrivateFiles.file(file), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(this));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write dev's state to " + file, e);
    }
  }

  /** The state in {@code file} when its dev still runs; empty (with a note on {@code err}) else. */
  static Optional<DevState> readLive(Path file, PrintWriter err) {
    if (!Files.isReadable(file)) {
      return Optional.empty();
    }
    DevState state;
    try {
      state = JSON.readValue(file.toFile(), DevState.class);
    } catch (IOException e) {
      err.println("payrelay: note: ignoring " + file + ", which is not dev's state (" + e + ")");
      return Optional.empty();
    }
    if (ProcessHandle.of(state.pid()).map(ProcessHandle::isAlive).orElse(false)) {
      return Optional.of(state);
    }
    err.println(
        "payrelay: note: ignoring "
            + file
            + ": the dev that wrote it (pid "
            + state.pid()
            + ") is not running");
    return Optional.empty();
  }

  /**
   * {@code access} pointed at the running dev of {@code file} where the environment {@code env}
   * names no address and no key; {@code access} unchanged without a live dev.
   */
  static PayrelayConfig.AccessSettings apply(
      PayrelayConfig.AccessSettings access, Map<String, String> env, Path file, PrintWriter err) {
    boolean addressGiven = ADDRESS_VARIABLES.stream().anyMatch(env::containsKey);
    boolean keyGiven =
        env.containsKey("PAYRELAY_API_KEY") || env.containsKey("PAYRELAY_API_KEY_FILE");
    if (addressGiven && keyGiven) {
      return access;
    }
    Optional<DevState> live = readLive(file, err);
    if (live.isEmpty()) {
      return access;
    }
    DevState dev = live.get();
    boolean useKey = !keyGiven && dev.apiKey() != null;
    return new PayrelayConfig.AccessSettings(
        access.keys(),
        access.adminHost(),
        access.adminPort(),
        addressGiven ? access.adminUrl() : URI.create(dev.adminUrl()),
        useKey ? dev.apiKey() : access.clientKey(),
        useKey ? "the running dev's state file " + file : access.clientKeySource(),
        access.codecOpen(),
        access.signalTokens());
  }
}

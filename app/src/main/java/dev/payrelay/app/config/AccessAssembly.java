package dev.payrelay.app.config;

import dev.payrelay.api.auth.ApiKeys;
import dev.payrelay.app.config.PayrelayConfig.AccessSettings;
import dev.payrelay.app.config.mapping.AccessMapping;
import dev.payrelay.app.config.mapping.CodecAuth;
import dev.payrelay.app.config.mapping.PayrelayMapping;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Builds {@link AccessSettings}: the API keys the server accepts, the admin listener, the key and
 * address the CLI uses, the codec endpoint's rule and the signal tokens.
 */
final class AccessAssembly {

  private AccessAssembly() {}

  /**
   * The access settings of {@code m}.
   *
   * @param localDevServer whether payrelay runs its own local Temporal dev server (no address from
   *     any source) outside production: its Web UI sends no API key, so the codec endpoint is open
   *     unless {@code PAYRELAY_CODEC_AUTH} says otherwise
   * @throws IllegalArgumentException naming the setting whose keys or file cannot be read
   */
  static AccessSettings access(PayrelayMapping m, boolean localDevServer) {
    AccessMapping.Api api = m.api();
    ApiKeys keys = ApiKeys.parse(api.keys().orElse(""), "PAYRELAY_API_KEYS");
    if (api.keysFile().isPresent()) {
      Path file = api.keysFile().get();
      keys = keys.and(ApiKeys.parse(read(file, "PAYRELAY_API_KEYS_FILE"), file.toString()));
    }
    Optional<Integer> adminPort = m.admin().port();
    URI adminUrl =
        m.admin()
            .url()
            .orElseGet(() -> URI.create("http://127.0.0.1:" + adminPort.orElse(api.port())));
    ClientKey client = clientKey(api, m.dataDir());
    return new AccessSettings(
        keys,
        m.admin().host(),
        adminPort.orElse(null),
        adminUrl,
        client.key(),
        client.source(),
        m.codec().auth().orElse(localDevServer ? CodecAuth.OPEN : CodecAuth.KEY) == CodecAuth.OPEN,
        SignalTokenSettings.from(m.signalToken()));
  }

  /** The CLI's key and where it came from; both null when there is none. */
  private record ClientKey(String key, String source) {}

  /** {@code PAYRELAY_API_KEY}, else the key file's first line, else dev's key file. */
  private static ClientKey clientKey(AccessMapping.Api api, Path dataDir) {
    if (api.key().isPresent()) {
      return new ClientKey(api.key().get(), "PAYRELAY_API_KEY");
    }
    if (api.keyFile().isPresent()) {
      Path file = api.keyFile().get();
      String key = read(file, "PAYRELAY_API_KEY_FILE").strip().lines().findFirst().orElse(null);
      return new ClientKey(key, "PAYRELAY_API_KEY_FILE " + file);
    }
    Path devKey = dataDir.resolve(AccessSettings.DEV_KEY_FILE);
    if (Files.isReadable(devKey)) {
      return new ClientKey(read(devKey, "the dev key file").strip(), "dev's key file " + devKey);
    }
    return new ClientKey(null, null);
  }

  /** A file's text, or an error naming the setting that pointed at it. */
  private static String read(Path file, String setting) {
    try {
      return Files.readString(file);
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException(setting + ": cannot read " + file + ": " + e, e);
    }
  }
}

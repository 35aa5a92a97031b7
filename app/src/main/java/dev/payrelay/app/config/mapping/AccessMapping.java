package dev.payrelay.app.config.mapping;

import dev.payrelay.api.http.HttpLimits;
import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.config.binder.ByteSize;
import dev.payrelay.app.config.binder.Doc;
import io.smallrye.config.WithDefault;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/** The settings of the HTTP API, who may use it, and its admin and codec endpoints. */
public interface AccessMapping {

  /** {@code payrelay.api}: the HTTP API, its keys, and what slow or greedy clients may hold. */
  interface Api {

    /** See {@link Doc}. */
    @Doc("The API's listener address; production mode needs an admin port when not loopback.")
    @WithDefault("127.0.0.1")
    String host();

    /** See {@link Doc}. */
    @Doc(value = "The API's listener port; 0 picks a free one.", min = "0", max = "65535")
    @WithDefault("8080")
    int port();

    /** See {@link Doc}. */
    @Doc(
        value =
            "The API keys the server accepts (payrelay apikey prints a line), separated by"
                + " newlines or ;. None: payment and admin requests answer 401, except under"
                + " payrelay dev, which makes its own key.",
        mask = Doc.Mask.SECRET)
    Optional<String> keys();

    /** See {@link Doc}. */
    @Doc("A file of more API key lines, read as well as PAYRELAY_API_KEYS.")
    Optional<Path> keysFile();

    /** See {@link Doc}. */
    @Doc(
        value = "The key the CLI sends to the admin API.",
        byDefault = "PAYRELAY_API_KEY_FILE's first line, else dev's key in PAYRELAY_DATA_DIR",
        mask = Doc.Mask.SECRET)
    Optional<String> key();

    /** See {@link Doc}. */
    @Doc("A file whose first line is the key the CLI sends.")
    Optional<Path> keyFile();

    /** See {@link Doc}. */
    @Doc(
        value =
            "How long a statement of the API's pool waits for a row, table or metadata lock"
                + " (innodb_lock_wait_timeout and lock_wait_timeout, whole seconds) before its"
                + " transaction is tried once more and fails, so a callback meeting a held row is"
                + " answered 503 before its channel gives up.",
        min = "1s",
        max = PayrelayConfig.ApiSettings.MAX_LOCK_WAIT_SECONDS + "s",
        step = "1s")
    @WithDefault(PayrelayConfig.ApiSettings.DEFAULT_LOCK_WAIT_SECONDS + "s")
    Duration lockWait();

    /** See {@link Doc}. */
    @Doc(
        value =
            "A connection must have sent its whole request head this long after it opened or"
                + " after its previous response (so also a kept-alive connection's idle time).",
        min = HttpLimits.MIN_SECONDS + "s",
        max = HttpLimits.MAX_HEADER_SECONDS + "s")
    @WithDefault("10s")
    Duration headerTimeout();

    /** See {@link Doc}. */
    @Doc(
        value = "The part of a body's deadline that does not depend on its size.",
        min = HttpLimits.MIN_SECONDS + "s",
        max = HttpLimits.MAX_GRACE_SECONDS + "s")
    @WithDefault("5s")
    Duration bodyGrace();

    /** See {@link Doc}. */
    @Doc(
        value = "The slowest pace, per second, a body of the largest allowed size may arrive at.",
        min = HttpLimits.MIN_RATE + "B",
        max = HttpLimits.MAX_RATE + "B")
    @WithDefault("8KiB")
    ByteSize bodyMinRate();

    /** See {@link Doc}. */
    @Doc(
        value = "Webhook bodies read at once; one more is answered 503 with Retry-After unread.",
        min = "1",
        max = "" + HttpLimits.MAX_COUNT)
    @WithDefault("2048")
    int maxWebhookReads();

    /** See {@link Doc}. */
    @Doc(
        value = "Connections open at once on a listener.",
        min = "" + HttpLimits.MIN_CONNECTIONS,
        max = "" + HttpLimits.MAX_COUNT)
    @WithDefault("8192")
    int maxConnections();

    /** See {@link Doc}. */
    @Doc(
        value =
            "Connections open at once from one remote address, at most"
                + " PAYRELAY_API_MAX_CONNECTIONS; 0 turns the cap off (behind a proxy).",
        min = "0",
        byDefault = "128, or PAYRELAY_API_MAX_CONNECTIONS when smaller")
    Optional<Integer> maxConnectionsPerClient();

    /** See {@link Doc}. */
    @Doc(
        value = "The listen backlog (Linux caps it at net.core.somaxconn).",
        min = "1",
        max = "" + HttpLimits.MAX_ACCEPT_QUEUE)
    @WithDefault("1024")
    int acceptQueue();
  }

  /** {@code payrelay.admin}: the admin listener and the CLI's way to it. */
  interface Admin {

    /** See {@link Doc}. */
    @Doc("The admin listener's address.")
    @WithDefault("127.0.0.1")
    String host();

    /** See {@link Doc}. */
    @Doc(
        value =
            "When set, /v1/admin/..., /metrics and the codec endpoint are served only on this"
                + " port; unset serves them with the rest of the API.",
        min = "0",
        max = "65535")
    Optional<Integer> port();

    /** See {@link Doc}. */
    @Doc(
        value = "Where the CLI sends admin requests.",
        byDefault = "http://127.0.0.1:<PAYRELAY_ADMIN_PORT, else PAYRELAY_API_PORT>")
    Optional<URI> url();
  }

  /** {@code payrelay.codec}: the codec endpoint the Temporal UI and CLI decode payloads with. */
  interface Codec {

    /** See {@link Doc}. */
    @Doc(
        value =
            "key: with payload encryption on, the endpoint decodes only for a request with a valid"
                + " API key; open: for anyone who reaches it (a UI without login on a trusted"
                + " network; put it on the admin listener).",
        byDefault =
            "open on payrelay's own local dev server (no PAYRELAY_TEMPORAL_ADDRESS, not"
                + " PAYRELAY_PROFILE=prod): its UI sends no key; key otherwise")
    Optional<CodecAuth> auth();

    /** See {@link Doc}. */
    @Doc(
        value = "The Temporal UI origins allowed to call the codec endpoint from a browser.",
        syntax = "origin,...",
        byDefault = "the local UI's: http://127.0.0.1:<ui port>,http://localhost:<ui port>")
    Optional<String> corsOrigin();
  }

  /** {@code payrelay.signal-token}: verified identities for raw operator signals. */
  interface SignalToken {

    /** See {@link Doc}. */
    @Doc(
        value =
            "The HMAC-SHA256 key the API signs tokens with and the worker's activities verify;"
                + " the same for both. The default is published, so production mode refuses it,"
                + " and any shorter than 32 bytes.",
        byDefault = "a published dev secret",
        mask = Doc.Mask.SECRET)
    Optional<String> secret();

    /** See {@link Doc}. */
    @Doc("A file holding the signal token secret; not with PAYRELAY_SIGNAL_TOKEN_SECRET.")
    Optional<Path> secretFile();

    /** See {@link Doc}. */
    @Doc(value = "How long a token stays valid after it is signed.", min = "30s", max = "1d")
    @WithDefault("15m")
    Duration ttl();
  }
}

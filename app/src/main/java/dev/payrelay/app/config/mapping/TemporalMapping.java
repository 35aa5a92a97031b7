package dev.payrelay.app.config.mapping;

import dev.payrelay.app.config.binder.Doc;
import io.smallrye.config.WithDefault;
import io.temporal.serviceclient.GrpcCompression;
import java.net.URI;
import java.nio.file.Path;
import java.util.Optional;

/**
 * {@code payrelay.temporal}: the Temporal client. Its connection follows Temporal's own client
 * configuration (the {@code TEMPORAL_*} variables and {@code temporal.toml} profiles, as the {@code
 * temporal} CLI and the Java SDK's temporal-envconfig read them); each setting here that is set
 * overrides the matching field of that profile, and without any the local dev server is used.
 */
public interface TemporalMapping {

  /** See {@link Doc}. */
  @Doc(
      value =
          "host:port of a running frontend; overrides TEMPORAL_ADDRESS and the temporal.toml"
              + " profile's address. None of them set: the local dev server, which payrelay dev"
              + " starts when it is not running. Set (by any of them): production mode unless"
              + " PAYRELAY_PROFILE says otherwise.",
      byDefault = "TEMPORAL_ADDRESS or the profile's, else the local server")
  Optional<String> address();

  /** See {@link Doc}. */
  @Doc(
      value =
          "The namespace, created with payrelay's search attributes when missing; overrides"
              + " TEMPORAL_NAMESPACE and the profile's namespace.",
      byDefault = "TEMPORAL_NAMESPACE or the profile's, else default")
  Optional<String> namespace();

  /** See {@link Doc}. */
  @Doc(
      value =
          "An API key sent with every call as Authorization: Bearer (Temporal Cloud); implies"
              + " TLS unless PAYRELAY_TEMPORAL_TLS=false. Overrides TEMPORAL_API_KEY and the"
              + " profile's api_key. Not with PAYRELAY_TEMPORAL_API_KEY_FILE.",
      mask = Doc.Mask.SECRET)
  Optional<String> apiKey();

  /** See {@link Doc}. */
  @Doc("A file holding the API key (trimmed), e.g. a mounted secret.")
  Optional<Path> apiKeyFile();

  /** See {@link Doc}. */
  @Doc(
      value =
          "TLS on the connection. Unset: on when any TLS file or server name, or an API key, is"
              + " set (here, in TEMPORAL_TLS_* or in the profile); false with a certificate is"
              + " refused. Overrides TEMPORAL_TLS and the profile's tls.disabled.",
      byDefault = "TEMPORAL_TLS or the profile's, else as above")
  Optional<Boolean> tls();

  /** See {@link Doc}. */
  @Doc(
      value =
          "PEM file of the CA(s) that signed the server's certificate; overrides"
              + " TEMPORAL_TLS_SERVER_CA_CERT_PATH.",
      byDefault = "the JVM's trust store")
  Optional<Path> tlsCa();

  /** See {@link Doc}. */
  @Doc(
      "PEM certificate chain presented for mTLS, with PAYRELAY_TEMPORAL_TLS_KEY; overrides"
          + " TEMPORAL_TLS_CLIENT_CERT_PATH.")
  Optional<Path> tlsCert();

  /** See {@link Doc}. */
  @Doc(
      "The client certificate's PKCS#8 PEM private key (BEGIN PRIVATE KEY; convert others with"
          + " openssl pkcs8 -topk8 -nocrypt); overrides TEMPORAL_TLS_CLIENT_KEY_PATH.")
  Optional<Path> tlsKey();

  /** See {@link Doc}. */
  @Doc(
      value =
          "The name sent as SNI and :authority and checked in the server's certificate, when it"
              + " differs from the address's host; overrides TEMPORAL_TLS_SERVER_NAME.",
      byDefault = "the address's host")
  Optional<String> tlsServerName();

  /** See {@link Doc}. */
  @Doc(
      value =
          "gRPC message compression of calls to the frontend. The SDK's own default is gzip;"
              + " payrelay's requests are small and flight recordings showed gzip costing about"
              + " 3% of the worker's CPU, so it is off unless a slow link needs it.")
  @WithDefault("none")
  GrpcCompression compression();

  /** See {@link Doc}. */
  @Doc("The Temporal CLI that payrelay dev runs as the local server.")
  @WithDefault("temporal")
  String cli();

  /** See {@link Doc}. */
  @Doc(value = "The local server's gRPC port (127.0.0.1).", min = "1", max = "65535")
  @WithDefault("7233")
  int port();

  /** See {@link Doc}. */
  @Doc(
      value = "The local server's Web UI port, and so the codec endpoint's default CORS origins.",
      min = "1",
      max = "65535")
  @WithDefault("8233")
  int uiPort();

  /** See {@link Doc}. */
  @Doc(
      value =
          "The Temporal UI's base URL, for the workflow links in payment trails (payrelay payment"
              + " show, GET /v1/payments/{id}): <url>/namespaces/<ns>/workflows/<id>/<runId>.",
      byDefault = "the local server's UI, http://127.0.0.1:<ui-port>; none with an address set")
  Optional<URI> uiUrl();

  /** See {@link Doc}. */
  @Doc(
      "The Java test server as the local server instead (payrelay dev --embedded-temporal): in"
          + " memory, no UI, no visibility listing, no Schedules, workflows lost on restart.")
  @WithDefault("false")
  boolean inMemory();

  /** {@code payrelay.payload}: encryption of what payrelay writes into Temporal's histories. */
  interface Payload {

    /** See {@link Doc}. */
    @Doc(
        value =
            "The payload codec's AES-256-GCM key, base64 of 32 bytes (openssl rand -base64 32);"
                + " unset leaves payloads as JSON, which production mode refuses.",
        mask = Doc.Mask.SECRET)
    Optional<String> key();

    /** See {@link Doc}. */
    @Doc("A file holding the payload key; not with PAYRELAY_PAYLOAD_KEY.")
    Optional<Path> keyFile();

    /** See {@link Doc}. */
    @Doc("The key's id, required with a key: stored in each payload so keys can rotate.")
    Optional<String> keyId();

    /** See {@link Doc}. */
    @Doc(
        value = "Rotated-out keys, kept for decoding only.",
        syntax = "id:base64,...",
        mask = Doc.Mask.SECRET)
    Optional<String> oldKeys();
  }
}

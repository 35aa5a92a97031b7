package dev.payrelay.app.config;

import dev.payrelay.api.CodecEndpoint;
import dev.payrelay.api.codec.AesGcmPayloadCodec;
import dev.payrelay.api.codec.PayloadKeyRing;
import io.temporal.common.converter.DataConverter;
import io.temporal.common.converter.DefaultDataConverter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How payrelay talks to Temporal safely: TLS and an API key on the connection, and encryption of
 * the payloads it writes into histories. Files are read once, at start: a missing or unreadable one
 * fails then, naming its setting. {@link #toString()} never shows a secret.
 *
 * @param tls the connection's TLS ({@link TemporalTls}); null for plain text
 * @param apiKey {@code PAYRELAY_TEMPORAL_API_KEY}, or the trimmed content of the file at {@code
 *     PAYRELAY_TEMPORAL_API_KEY_FILE} (not both): sent with every call as {@code Authorization:
 *     Bearer <key>}, as Temporal Cloud's API keys are; null for none. Implies TLS unless {@code
 *     PAYRELAY_TEMPORAL_TLS=false} (e.g. a local proxy that terminates TLS)
 * @param payloadKeys the payload codec's keys, null to leave payloads as JSON (dev): {@code
 *     PAYRELAY_PAYLOAD_KEY} or the file at {@code PAYRELAY_PAYLOAD_KEY_FILE} (base64 of 32 bytes,
 *     e.g. {@code openssl rand -base64 32}) with its id {@code PAYRELAY_PAYLOAD_KEY_ID} (required
 *     with a key, stored in each payload); {@code PAYRELAY_PAYLOAD_OLD_KEYS=id:base64[,id:base64]}
 *     keeps rotated-out keys for decoding only
 * @param codecCorsOrigins {@code PAYRELAY_CODEC_CORS_ORIGIN}: the Temporal UI origins (comma
 *     separated) allowed to call the API's codec endpoint from a browser; default the local dev
 *     server's UI at its port {@code PAYRELAY_TEMPORAL_UI_PORT} ({@link
 *     CodecEndpoint#localUiOrigins}), {@code http://127.0.0.1:8233,http://localhost:8233} with the
 *     default port
 */
public record TemporalSecurity(
    TemporalTls tls, String apiKey, PayloadKeyRing payloadKeys, List<String> codecCorsOrigins) {

  /** Copies the origins. */
  public TemporalSecurity {
    codecCorsOrigins = List.copyOf(codecCorsOrigins);
  }

  /**
   * Reads the settings named in the record's description from an environment map.
   *
   * @param localUiPort the local dev server's Web UI port ({@code PAYRELAY_TEMPORAL_UI_PORT}, read
   *     by {@link PayrelayConfig}): the codec endpoint's default CORS origins are that UI's
   * @throws IllegalArgumentException naming the setting that is malformed, contradicts another, or
   *     names a file that cannot be read
   */
  public static TemporalSecurity fromEnv(Map<String, String> env, int localUiPort) {
    String apiKey = secret(env, "PAYRELAY_TEMPORAL_API_KEY");
    return new TemporalSecurity(
        TemporalTls.fromEnv(env, apiKey != null),
        apiKey,
        payloadKeys(env),
        origins(text(env, "PAYRELAY_CODEC_CORS_ORIGIN"), localUiPort));
  }

  /**
   * The data converter for every WorkflowClient: the SDK's default, encrypted when keys are set.
   */
  public DataConverter dataConverter() {
    return payloadKeys == null
        ? DefaultDataConverter.STANDARD_INSTANCE
        : AesGcmPayloadCodec.dataConverter(payloadKeys);
  }

  /** The payload codec, when payload keys are set. */
  public Optional<AesGcmPayloadCodec> payloadCodec() {
    return Optional.ofNullable(payloadKeys).map(AesGcmPayloadCodec::new);
  }

  @Override
  public String toString() {
    return "TemporalSecurity[tls="
        + tls
        + ", apiKey="
        + (apiKey == null ? "none" : "set")
        + ", payloadKeys="
        + payloadKeys
        + ", codecCorsOrigins="
        + codecCorsOrigins
        + "]";
  }

  private static PayloadKeyRing payloadKeys(Map<String, String> env) {
    String key = secret(env, "PAYRELAY_PAYLOAD_KEY");
    String id = text(env, "PAYRELAY_PAYLOAD_KEY_ID");
    String old = text(env, "PAYRELAY_PAYLOAD_OLD_KEYS");
    if (key == null) {
      if (id != null || old != null) {
        throw new IllegalArgumentException(
            "PAYRELAY_PAYLOAD_KEY_ID and PAYRELAY_PAYLOAD_OLD_KEYS need PAYRELAY_PAYLOAD_KEY"
                + " (or PAYRELAY_PAYLOAD_KEY_FILE)");
      }
      return null;
    }
    if (id == null) {
      throw new IllegalArgumentException(
          "PAYRELAY_PAYLOAD_KEY_ID must name the payload key (it is stored in each payload so keys"
              + " can rotate)");
    }
    Map<String, byte[]> oldKeys = new LinkedHashMap<>();
    for (String item : old == null ? new String[0] : old.split(",")) {
      String[] parts = item.trim().split(":", 2);
      if (parts.length != 2 || parts[0].isBlank()) {
        throw new IllegalArgumentException(
            "PAYRELAY_PAYLOAD_OLD_KEYS must be id:base64[,id:base64...]; an entry has no id");
      }
      oldKeys.put(
          parts[0].trim(), base64("PAYRELAY_PAYLOAD_OLD_KEYS (" + parts[0] + ")", parts[1]));
    }
    try {
      return new PayloadKeyRing(id, base64("PAYRELAY_PAYLOAD_KEY", key), oldKeys);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("PAYRELAY_PAYLOAD_KEY: " + e.getMessage(), e);
    }
  }

  private static byte[] base64(String setting, String value) {
    try {
      return Base64.getDecoder().decode(value.trim());
    } catch (IllegalArgumentException e) {
      // The decoder's message quotes the offending character; a secret stays out of it.
      throw new IllegalArgumentException(setting + " must be base64 (of 32 bytes)");
    }
  }

  private static List<String> origins(String spec, int localUiPort) {
    if (spec == null) {
      return CodecEndpoint.localUiOrigins(localUiPort);
    }
    return List.of(spec.split(",")).stream()
        .map(String::trim)
        .filter(s -> !s.isEmpty())
        .map(s -> s.replaceAll("/$", ""))
        .toList();
  }

  /** A setting's trimmed value, null when unset or blank. */
  static String text(Map<String, String> env, String name) {
    String v = env.get(name);
    return v == null || v.isBlank() ? null : v.trim();
  }

  /**
   * A secret given either as {@code NAME} or as a file at {@code NAME_FILE} (trimmed), not both.
   */
  private static String secret(Map<String, String> env, String name) {
    String value = text(env, name);
    Path file = file(env, name + "_FILE");
    if (value != null && file != null) {
      throw new IllegalArgumentException("set " + name + " or " + name + "_FILE, not both");
    }
    if (file == null) {
      return value;
    }
    String content = new String(read(name + "_FILE", file), StandardCharsets.UTF_8).trim();
    if (content.isEmpty()) {
      throw new IllegalArgumentException(name + "_FILE: " + file + " is empty");
    }
    return content;
  }

  /** The path in setting {@code name}, or null when unset. */
  static Path file(Map<String, String> env, String name) {
    String v = text(env, name);
    return v == null ? null : Path.of(v);
  }

  /**
   * The bytes of the file a setting names.
   *
   * @throws IllegalArgumentException naming the setting and the path when it cannot be read
   */
  static byte[] read(String setting, Path file) {
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          setting + ": cannot read " + file + " (" + e.getClass().getSimpleName() + ")", e);
    }
  }
}

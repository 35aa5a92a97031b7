package dev.payrelay.app.config;

import dev.payrelay.api.codec.AesGcmPayloadCodec;
import dev.payrelay.api.codec.PayloadKeyRing;
import dev.payrelay.api.http.CodecEndpoint;
import dev.payrelay.app.config.mapping.PayrelayMapping;
import dev.payrelay.app.config.mapping.TemporalMapping;
import io.grpc.Metadata;
import io.temporal.common.converter.DataConverter;
import io.temporal.common.converter.DefaultDataConverter;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How payrelay talks to Temporal safely: TLS and an API key on the connection ({@link
 * TemporalClientConfig}), and encryption of the payloads it writes into histories ({@link
 * TemporalMapping.Payload}). Files are read once, at start: a missing or unreadable one fails then,
 * naming its setting. {@link #toString()} never shows a secret.
 *
 * @param tls the connection's TLS ({@link TemporalTls}); null for plain text
 * @param apiKey sent with every call as {@code Authorization: Bearer <key>}, as Temporal Cloud's
 *     API keys are; null for none
 * @param payloadKeys the payload codec's keys, null to leave payloads as JSON (dev)
 * @param codecCorsOrigins the Temporal UI origins allowed to call the API's codec endpoint from a
 *     browser
 * @param grpcMetadata gRPC headers sent with every call ({@code TEMPORAL_GRPC_META_*}), or null
 */
public record TemporalSecurity(
    TemporalTls tls,
    String apiKey,
    PayloadKeyRing payloadKeys,
    List<String> codecCorsOrigins,
    Metadata grpcMetadata) {

  /** Copies the origins. */
  public TemporalSecurity {
    codecCorsOrigins = List.copyOf(codecCorsOrigins);
  }

  /**
   * The settings of {@code client} and {@code m}.
   *
   * @throws IllegalArgumentException naming the setting that is malformed, contradicts another, or
   *     names a file that cannot be read
   */
  static TemporalSecurity from(TemporalClientConfig client, PayrelayMapping m) {
    return new TemporalSecurity(
        TemporalTls.from(client.tls(), client.apiKey() != null),
        client.apiKey(),
        payloadKeys(m.payload()),
        origins(m.codec().corsOrigin(), m.temporal().uiPort()),
        client.metadata());
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
        + (grpcMetadata == null ? "" : ", grpcMetadata=" + grpcMetadata.keys())
        + "]";
  }

  private static PayloadKeyRing payloadKeys(TemporalMapping.Payload m) {
    String key = SecretSetting.read("PAYRELAY_PAYLOAD_KEY", m.key(), m.keyFile());
    if (key == null) {
      if (m.keyId().isPresent() || m.oldKeys().isPresent()) {
        throw new IllegalArgumentException(
            "PAYRELAY_PAYLOAD_KEY_ID and PAYRELAY_PAYLOAD_OLD_KEYS need PAYRELAY_PAYLOAD_KEY"
                + " (or PAYRELAY_PAYLOAD_KEY_FILE)");
      }
      return null;
    }
    String id =
        m.keyId()
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "PAYRELAY_PAYLOAD_KEY_ID must name the payload key (it is stored in each"
                            + " payload so keys can rotate)"));
    try {
      return new PayloadKeyRing(id, base64("PAYRELAY_PAYLOAD_KEY", key), oldKeys(m.oldKeys()));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("PAYRELAY_PAYLOAD_KEY: " + e.getMessage(), e);
    }
  }

  private static Map<String, byte[]> oldKeys(Optional<String> spec) {
    Map<String, byte[]> oldKeys = new LinkedHashMap<>();
    for (String item : spec.map(s -> s.split(",")).orElse(new String[0])) {
      String[] parts = item.trim().split(":", 2);
      if (parts.length != 2 || parts[0].isBlank()) {
        throw new IllegalArgumentException(
            "PAYRELAY_PAYLOAD_OLD_KEYS must be id:base64[,id:base64...]; an entry has no id");
      }
      oldKeys.put(
          parts[0].trim(), base64("PAYRELAY_PAYLOAD_OLD_KEYS (" + parts[0] + ")", parts[1]));
    }
    return oldKeys;
  }

  private static byte[] base64(String setting, String value) {
    try {
      return Base64.getDecoder().decode(value.trim());
    } catch (IllegalArgumentException e) {
      // The decoder's message quotes the offending character; a secret stays out of it.
      throw new IllegalArgumentException(setting + " must be base64 (of 32 bytes)");
    }
  }

  private static List<String> origins(Optional<String> spec, int localUiPort) {
    if (spec.isEmpty()) {
      return CodecEndpoint.localUiOrigins(localUiPort);
    }
    return List.of(spec.get().split(",")).stream()
        .map(String::trim)
        .filter(s -> !s.isEmpty())
        .map(s -> s.replaceAll("/$", ""))
        .toList();
  }
}

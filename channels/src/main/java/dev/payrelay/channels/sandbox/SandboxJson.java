package dev.payrelay.channels.sandbox;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.Optional;

/**
 * Small JSON reading helpers shared by the channel adapter and the simulator. Every failure is an
 * {@link IllegalArgumentException} whose message names the offending field, so callers can map it
 * to their own error (MALFORMED callback, 400 answer, non-retryable channel error).
 */
public final class SandboxJson {

  private final ObjectMapper mapper;

  public SandboxJson(ObjectMapper mapper) {
    this.mapper = mapper;
  }

  /**
   * Parses bytes that must hold one JSON object.
   *
   * @throws IllegalArgumentException if the bytes are not JSON or not an object
   */
  public JsonNode object(byte[] json) {
    JsonNode node;
    try {
      node = mapper.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage(), e);
    } catch (IOException e) {
      throw new IllegalArgumentException("not JSON: " + e.getMessage(), e);
    }
    if (node == null || !node.isObject()) {
      throw new IllegalArgumentException("not a JSON object");
    }
    return node;
  }

  /**
   * A field that must be a non-blank JSON string.
   *
   * @throws IllegalArgumentException if it is absent, null, not a string or blank
   */
  public static String text(JsonNode node, String field) {
    return optionalText(node, field)
        .orElseThrow(() -> new IllegalArgumentException("missing field " + field));
  }

  /**
   * A field that may be absent or JSON null, but otherwise must be a non-blank string.
   *
   * @throws IllegalArgumentException if present but not a non-blank string
   */
  public static Optional<String> optionalText(JsonNode node, String field) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return Optional.empty();
    }
    if (!value.isTextual() || value.asText().isBlank()) {
      throw new IllegalArgumentException("field " + field + " must be a non-blank string");
    }
    return Optional.of(value.asText());
  }

  /** Serialises a tree to UTF-8 bytes. */
  public byte[] bytes(JsonNode node) {
    try {
      return mapper.writeValueAsBytes(node);
    } catch (IOException e) {
      // Writing an in-memory tree to a byte array cannot fail for I/O reasons.
      throw new IllegalStateException("cannot serialise JSON tree", e);
    }
  }

  /** A fresh empty object node. */
  public ObjectNode newObject() {
    return mapper.createObjectNode();
  }
}

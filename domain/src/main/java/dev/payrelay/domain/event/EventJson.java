package dev.payrelay.domain.event;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The JSON form of event payloads: the bytes stored in {@code outbox_event.payload} and published
 * unchanged as the AMQP message body.
 *
 * <p>Unknown properties fail decoding, so a payload of a newer version than this code knows is a
 * permanent error rather than silently partial.
 */
public final class EventJson {

  private final ObjectMapper mapper =
      JsonMapper.builder().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

  /**
   * Encodes a payload record.
   *
   * @throws IllegalArgumentException if the value cannot be encoded
   */
  public String encode(Object payload) {
    try {
      return mapper.writeValueAsString(payload);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("cannot encode event payload " + payload, e);
    }
  }

  /**
   * Decodes a payload.
   *
   * @throws IllegalArgumentException if the JSON does not match {@code type}
   */
  public <T> T decode(String json, Class<T> type) {
    try {
      return mapper.readValue(json, type);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("cannot decode " + type.getSimpleName() + ": " + json, e);
    }
  }
}

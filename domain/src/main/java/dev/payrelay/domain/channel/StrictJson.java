package dev.payrelay.domain.channel;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.payrelay.domain.channel.CallbackRejectedException.Reason;
import java.io.IOException;

/**
 * One JSON value per signed body, with unique keys and nothing after it (RFC 8259 section 4: "The
 * names within an object SHOULD be unique"; parsers that meet a repeated name differ). A signature
 * covers bytes; if two parsers read those bytes differently (the last of two {@code amount} keys,
 * or a second value after the first), the one that decides is not the one the signer meant, so a
 * body that could be read two ways is refused as {@link Reason#MALFORMED} before any field is
 * believed. Channels whose SDK parses leniently (Stripe's and WeChat Pay's use Gson) check here
 * first.
 */
public final class StrictJson {

  private static final ObjectMapper STRICT =
      JsonMapper.builder()
          .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  private StrictJson() {}

  /** A mapper that reads one value with unique keys and nothing after it, for parsers of ours. */
  public static ObjectMapper mapper() {
    return STRICT;
  }

  /**
   * Reads {@code json} strictly.
   *
   * @param what what the body is, for the message (e.g. "Stripe event")
   * @return the value, for callers that read it here
   * @throws CallbackRejectedException MALFORMED naming the repeated key, the trailing content or
   *     the syntax error
   */
  public static JsonNode read(byte[] json, String what) throws CallbackRejectedException {
    try {
      JsonNode node = STRICT.readTree(json);
      if (node == null || node.isMissingNode()) {
        throw new CallbackRejectedException(Reason.MALFORMED, what + " is empty");
      }
      return node;
    } catch (JsonProcessingException e) {
      throw new CallbackRejectedException(
          Reason.MALFORMED, what + " is not one strict JSON value: " + e.getOriginalMessage(), e);
    } catch (IOException e) {
      throw new CallbackRejectedException(
          Reason.MALFORMED, what + " cannot be read: " + e.getMessage(), e);
    }
  }
}

package dev.payrelay.domain.channel;

/**
 * The HTTP answer to a channel's callback, in the channel's protocol.
 *
 * @param httpStatus the status code
 * @param contentType the body's media type
 * @param body the body text
 */
public record ChannelReply(int httpStatus, String contentType, String body) {

  /**
   * payrelay's own refusal body, JSON (RFC 8259) {@code {"error":"<outcome>","inboxId":<id>}}, for
   * channels whose protocol reads only the status code.
   *
   * @param outcome the inbox's outcome, an upper-case identifier such as {@code BAD_SIGNATURE}
   * @param httpStatus a 4xx or 5xx
   * @param inboxId the {@code webhook_inbox} row that recorded the request
   */
  public static ChannelReply jsonRefusal(String outcome, int httpStatus, long inboxId) {
    return new ChannelReply(
        httpStatus,
        "application/json",
        "{\"error\":\"" + outcome + "\",\"inboxId\":" + inboxId + "}");
  }
}

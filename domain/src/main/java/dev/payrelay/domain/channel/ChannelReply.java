package dev.payrelay.domain.channel;

/**
 * The HTTP answer to a channel's callback, in the channel's protocol.
 *
 * @param httpStatus the status code
 * @param contentType the body's media type
 * @param body the body text
 */
public record ChannelReply(int httpStatus, String contentType, String body) {}

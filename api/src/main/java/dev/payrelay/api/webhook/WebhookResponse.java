package dev.payrelay.api.webhook;

/**
 * The HTTP answer to a channel's callback.
 *
 * @param status the status code
 * @param contentType the body's media type
 * @param body the body
 * @param inboxId the {@code webhook_inbox} row that recorded the request, or -1 if it could not be
 *     stored (then the status is 503 and the channel retries)
 */
public record WebhookResponse(int status, String contentType, String body, long inboxId) {}

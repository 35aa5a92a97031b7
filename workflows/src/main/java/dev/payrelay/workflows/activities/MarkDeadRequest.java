package dev.payrelay.workflows.activities;

/**
 * Argument of {@link OutboxActivities#markDead}.
 *
 * @param eventId the event that could not be delivered
 * @param reason the last error, kept in {@code outbox_event.last_error}
 */
public record MarkDeadRequest(String eventId, String reason) {}

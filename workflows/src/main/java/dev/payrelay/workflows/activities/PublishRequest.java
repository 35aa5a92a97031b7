package dev.payrelay.workflows.activities;

/**
 * Argument of {@link OutboxActivities#publish}.
 *
 * @param eventId the outbox event to publish
 */
public record PublishRequest(String eventId) {}

package dev.payrelay.workflows.activities;

/**
 * Result of {@link OutboxActivities#publish}.
 *
 * @param eventId the event
 * @param alreadySent true when the row was already SENT and nothing was published this time
 */
public record PublishResult(String eventId, boolean alreadySent) {}

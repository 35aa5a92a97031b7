package dev.payrelay.workflows.activities;

/**
 * Argument of {@link ReconciliationActivities#startRun}, {@link ReconciliationActivities#ourSide}
 * and {@link DailyReconciliationActivities#startDay}: one channel's statement day.
 *
 * @param channel the channel name, e.g. {@code sandbox}
 * @param date the statement day as an ISO-8601 date ({@code yyyy-MM-dd}), in the channel's
 *     settlement time zone (UTC for the sandbox)
 */
public record ReconciliationDay(String channel, String date) {}

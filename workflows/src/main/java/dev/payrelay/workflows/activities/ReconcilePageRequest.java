package dev.payrelay.workflows.activities;

/**
 * Argument of {@link ReconciliationActivities#reconcilePage}.
 *
 * @param channel the channel name
 * @param date the statement day, ISO-8601 ({@code yyyy-MM-dd})
 * @param pageToken null for the first page, else the previous {@link PageResult#nextPageToken()}
 */
public record ReconcilePageRequest(String channel, String date, String pageToken) {}

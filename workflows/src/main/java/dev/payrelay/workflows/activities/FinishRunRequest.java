package dev.payrelay.workflows.activities;

/**
 * Argument of {@link ReconciliationActivities#finishRun}.
 *
 * @param channel the channel name
 * @param date the statement day, ISO-8601
 * @param status {@code COMPLETED} or {@code FAILED}
 * @param pagesRead statement pages this run read
 * @param linesRead statement lines this run read
 * @param error why the run FAILED (or which repairs failed), else null
 */
public record FinishRunRequest(
    String channel, String date, String status, int pagesRead, long linesRead, String error) {}

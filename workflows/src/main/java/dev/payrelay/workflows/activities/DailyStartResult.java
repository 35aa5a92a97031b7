package dev.payrelay.workflows.activities;

/**
 * What {@link DailyReconciliationActivities#startDay} did.
 *
 * @param workflowId the day's reconciliation, {@code recon-{channel}-{date}}
 * @param date the statement day, ISO-8601 ({@code yyyy-MM-dd})
 * @param started true if this call started a run; false if one was running or the day already
 *     completed after it ended
 * @param completedEarly whether the day's last run had completed before the day was over, so a
 *     completed day was allowed to run again
 */
public record DailyStartResult(
    String workflowId, String date, boolean started, boolean completedEarly) {}

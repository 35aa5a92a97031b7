package dev.payrelay.workflows.activities;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/**
 * The daily reconciliation's one step, type name {@code ReconDailyStartDay}. Its implementation is
 * also what the in-process hourly tick calls where Schedules are unsupported, so both follow the
 * same rules.
 */
@ActivityInterface(namePrefix = "ReconDaily")
public interface DailyReconciliationActivities {

  /**
   * Starts {@code recon-{channel}-{date}} unless it is running; a day whose last run FAILED is run
   * again, and so, once, is a day whose last run completed before the day was over (started on
   * demand during it, so it saw a partial statement). Idempotent: the workflow id is the business
   * key, so a retry after a start is "already running" and starts nothing.
   *
   * @throws io.temporal.failure.ApplicationFailure {@code INVALID_REQUEST} (non-retryable) for a
   *     blank channel or a date that is not ISO-8601; any other failure (Temporal or the database
   *     unreachable) is retryable
   */
  @ActivityMethod
  DailyStartResult startDay(ReconciliationDay day);
}

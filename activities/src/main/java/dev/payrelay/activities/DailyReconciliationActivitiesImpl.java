package dev.payrelay.activities;

import dev.payrelay.ledger.reconciliation.Reconciliation;
import dev.payrelay.ledger.reconciliation.ReconciliationRun;
import dev.payrelay.ledger.reconciliation.RunStatus;
import dev.payrelay.temporal.client.ReconciliationStarts;
import dev.payrelay.workflows.WorkflowIds;
import dev.payrelay.workflows.activities.DailyReconciliationActivities;
import dev.payrelay.workflows.activities.DailyStartResult;
import dev.payrelay.workflows.activities.ReconciliationDay;
import dev.payrelay.workflows.activities.ReconciliationFailure;
import io.temporal.client.WorkflowClient;
import io.temporal.failure.ApplicationFailure;
import java.time.LocalDate;
import java.time.ZoneOffset;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daily start rules over the day's last run in our tables and a Temporal client: the Schedule's
 * activity, and also called directly (outside any activity) by the worker's hourly tick where
 * Schedules are unsupported. Uses no activity context, so both callers run the same code.
 */
public final class DailyReconciliationActivitiesImpl implements DailyReconciliationActivities {

  private static final Logger log =
      LoggerFactory.getLogger(DailyReconciliationActivitiesImpl.class);

  private final WorkflowClient client;
  private final Reconciliation reconciliation;

  /** Starts through {@code client}; reads the day's last run through {@code reconciliation}. */
  public DailyReconciliationActivitiesImpl(WorkflowClient client, Reconciliation reconciliation) {
    this.client = client;
    this.reconciliation = reconciliation;
  }

  @Override
  public DailyStartResult startDay(ReconciliationDay day) {
    if (day.channel() == null || day.channel().isBlank()) {
      throw ApplicationFailure.newNonRetryableFailure(
          "a channel is required", ReconciliationFailure.INVALID_REQUEST.name());
    }
    LocalDate date = ReconciliationChannels.day(day.date());
    boolean early = completedEarly(day.channel(), date);
    boolean started = ReconciliationStarts.start(client, day.channel(), date, early);
    if (started) {
      log.info(
          "started reconciliation of {} for {}{}",
          day.channel(),
          date,
          early ? " again (its last run completed before the day was over)" : "");
    }
    return new DailyStartResult(
        WorkflowIds.reconciliation(day.channel(), date), date.toString(), started, early);
  }

  /**
   * Whether the day's last run completed before the day was over (started on demand during it):
   * then it saw a partial statement and the day is run again, once, after it ended.
   */
  private boolean completedEarly(String channel, LocalDate day) {
    ReconciliationRun run = reconciliation.summary(channel, day).run();
    return run != null
        && run.status() == RunStatus.COMPLETED
        && run.startedAt().isBefore(day.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant());
  }
}

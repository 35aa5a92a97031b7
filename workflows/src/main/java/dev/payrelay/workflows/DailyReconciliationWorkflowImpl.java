package dev.payrelay.workflows;

import dev.payrelay.workflows.activities.DailyReconciliationActivities;
import dev.payrelay.workflows.activities.DailyStartResult;
import dev.payrelay.workflows.activities.ReconciliationDay;
import dev.payrelay.workflows.activities.ReconciliationFailure;
import io.temporal.activity.ActivityOptions;
import io.temporal.common.SearchAttributeKey;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.slf4j.Logger;

/** Starts the reconciliation of the day before the action's scheduled time. */
public class DailyReconciliationWorkflowImpl implements DailyReconciliationWorkflow {

  /**
   * The action's nominal time, set by the Schedule on every workflow it starts (per Temporal's
   * Schedules docs); absent when the workflow is started any other way.
   */
  static final SearchAttributeKey<OffsetDateTime> SCHEDULED_START_TIME =
      SearchAttributeKey.forOffsetDateTime("TemporalScheduledStartTime");

  /** One database read and one workflow start. */
  private static final ActivityOptions START_OPTIONS =
      // About 8 minutes of an outage (10 attempts); then this action fails and the Schedule's next
      // hourly action tries the day again, so no action outlives its hour.
      DatabaseActivityOptions.withAttempts(
          Duration.ofSeconds(30), 10, ReconciliationFailure.INVALID_REQUEST.name());

  private static final Logger log = Workflow.getLogger(DailyReconciliationWorkflowImpl.class);

  private final DailyReconciliationActivities starts =
      Workflow.newActivityStub(DailyReconciliationActivities.class, START_OPTIONS);

  @Override
  public DailyStartResult run(DailyReconciliationInput input) {
    if (input == null || input.channel() == null || input.channel().isBlank()) {
      throw ApplicationFailure.newNonRetryableFailure(
          "a channel is required", ReconciliationFailure.INVALID_REQUEST.name());
    }
    Instant at = scheduledAt();
    LocalDate day = statementDay(at);
    DailyStartResult result =
        starts.startDay(new ReconciliationDay(input.channel(), day.toString()));
    log.info(
        "daily recon {} at {}: {} {}",
        input.channel(),
        at,
        result.workflowId(),
        result.started() ? "started" : "already running or done");
    return result;
  }

  /** The Schedule's nominal time of this action, else (started by hand) this run's start. */
  private static Instant scheduledAt() {
    OffsetDateTime nominal = Workflow.getTypedSearchAttributes().get(SCHEDULED_START_TIME);
    return nominal != null
        ? nominal.toInstant()
        : Instant.ofEpochMilli(Workflow.currentTimeMillis());
  }

  /** The UTC date before {@code at}: the last statement day that had ended at {@code at}. */
  static LocalDate statementDay(Instant at) {
    return at.atOffset(ZoneOffset.UTC).toLocalDate().minusDays(1);
  }
}

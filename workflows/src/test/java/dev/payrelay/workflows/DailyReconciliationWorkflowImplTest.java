package dev.payrelay.workflows;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;
import static org.mockito.Mockito.withSettings;

import dev.payrelay.workflows.activities.DailyReconciliationActivities;
import dev.payrelay.workflows.activities.DailyStartResult;
import dev.payrelay.workflows.activities.ReconciliationDay;
import io.temporal.api.enums.v1.IndexedValueType;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowOptions;
import io.temporal.common.SearchAttributes;
import io.temporal.failure.ApplicationFailure;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.testing.TestWorkflowExtension;
import io.temporal.worker.Worker;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class DailyReconciliationWorkflowImplTest {

  /** One second before midnight UTC: the date changes during the tests that skip time. */
  private static final Instant JUST_BEFORE_MIDNIGHT = Instant.parse("2026-03-11T23:59:59Z");

  @RegisterExtension
  static final TestWorkflowExtension testWorkflow =
      TestWorkflowExtension.newBuilder()
          .registerWorkflowImplementationTypes(DailyReconciliationWorkflowImpl.class)
          .registerSearchAttribute(
              DailyReconciliationWorkflowImpl.SCHEDULED_START_TIME.getName(),
              IndexedValueType.INDEXED_VALUE_TYPE_DATETIME)
          .setInitialTime(JUST_BEFORE_MIDNIGHT)
          .setDoNotStart(true)
          .build();

  private final DailyReconciliationActivities activities =
      mock(DailyReconciliationActivities.class, withSettings().withoutAnnotations());

  private TestWorkflowEnvironment env;
  private WorkflowClient client;
  private WorkflowOptions options;

  @BeforeEach
  void setUp(
      TestWorkflowEnvironment env, WorkflowClient client, WorkflowOptions options, Worker worker) {
    this.env = env;
    this.client = client;
    this.options = options;
    worker.registerActivitiesImplementations(activities);
    env.start();
    when(activities.startDay(any()))
        .thenAnswer(
            call -> {
              ReconciliationDay day = call.getArgument(0);
              return new DailyStartResult(
                  "recon-" + day.channel() + "-" + day.date(), day.date(), true, false);
            });
  }

  @Test
  void startedByHand_beforeMidnightUtc_reconcilesTheDayBeforeToday() {
    DailyStartResult result = start(options).run(new DailyReconciliationInput("sandbox"));

    verify(activities).startDay(new ReconciliationDay("sandbox", "2026-03-10"));
    assertThat(result.workflowId()).isEqualTo("recon-sandbox-2026-03-10");
  }

  @Test
  void startedByHand_afterMidnightUtc_reconcilesTheDayThatJustEnded() {
    env.sleep(Duration.ofSeconds(2));

    start(options).run(new DailyReconciliationInput("sandbox"));

    verify(activities).startDay(new ReconciliationDay("sandbox", "2026-03-11"));
  }

  @Test
  void startedByASchedule_reconcilesTheDayBeforeItsScheduledTime_notBeforeTheClock() {
    // A backfill (or a late catch-up) runs now for an hour long past, across a year's end here.
    OffsetDateTime scheduled = OffsetDateTime.of(2026, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);
    WorkflowOptions scheduledOptions =
        WorkflowOptions.newBuilder(options)
            .setTypedSearchAttributes(
                SearchAttributes.newBuilder()
                    .set(DailyReconciliationWorkflowImpl.SCHEDULED_START_TIME, scheduled)
                    .build())
            .build();

    start(scheduledOptions).run(new DailyReconciliationInput("sandbox"));

    verify(activities).startDay(new ReconciliationDay("sandbox", "2025-12-31"));
  }

  @Test
  void blankChannel_failsAsInvalidRequest_withoutStartingAnything() {
    WorkflowFailedException failed =
        catchThrowableOfType(
            WorkflowFailedException.class,
            () -> start(options).run(new DailyReconciliationInput(" ")));

    assertThat(failed.getCause()).isInstanceOf(ApplicationFailure.class);
    assertThat(((ApplicationFailure) failed.getCause()).getType()).isEqualTo("INVALID_REQUEST");
    verifyNoInteractions(activities);
  }

  @Test
  void statementDay_isTheUtcDateBefore_whateverTheInstantsOffset() {
    assertThat(DailyReconciliationWorkflowImpl.statementDay(Instant.parse("2026-03-01T00:00:00Z")))
        .hasToString("2026-02-28");
    assertThat(
            DailyReconciliationWorkflowImpl.statementDay(
                OffsetDateTime.parse("2026-03-01T07:30:00+08:00").toInstant()))
        .as("07:30 at +08:00 is still Feb 28 in UTC")
        .hasToString("2026-02-27");
  }

  private DailyReconciliationWorkflow start(WorkflowOptions options) {
    return client.newWorkflowStub(DailyReconciliationWorkflow.class, options);
  }
}

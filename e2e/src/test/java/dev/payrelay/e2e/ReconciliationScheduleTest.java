package dev.payrelay.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.payrelay.app.jobs.DailyReconciliationTrigger;
import dev.payrelay.app.runtime.WorkerRuntime;
import dev.payrelay.ledger.reconciliation.RunStatus;
import dev.payrelay.workflows.DailyReconciliationInput;
import dev.payrelay.workflows.ReconciliationSummary;
import dev.payrelay.workflows.TaskQueues;
import dev.payrelay.workflows.activities.DailyStartResult;
import io.temporal.api.enums.v1.ScheduleOverlapPolicy;
import io.temporal.client.WorkflowClient;
import io.temporal.client.schedules.Schedule;
import io.temporal.client.schedules.ScheduleActionExecutionStartWorkflow;
import io.temporal.client.schedules.ScheduleActionResult;
import io.temporal.client.schedules.ScheduleActionStartWorkflow;
import io.temporal.client.schedules.ScheduleBackfill;
import io.temporal.client.schedules.ScheduleDescription;
import io.temporal.client.schedules.ScheduleHandle;
import io.temporal.client.schedules.ScheduleIntervalSpec;
import io.temporal.client.schedules.ScheduleSpec;
import io.temporal.client.schedules.ScheduleUpdate;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The daily reconciliation Schedule on the real Temporal dev server, kept by a whole payrelay
 * ({@link PayrelayHarness}): its definition after worker start, its actions (the trigger at
 * creation, a manual trigger, a backfill) and a second worker's start. In order: the first test
 * sees the Schedule as the first start left it; the last one pauses it.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReconciliationScheduleTest {

  private static final String ID = "recon-daily-sandbox";
  private static final Duration ACTION_WAIT = Duration.ofSeconds(60);

  private static PayrelayHarness payrelay;
  private static ScheduleHandle handle;
  private static WorkflowClient client;

  @BeforeAll
  static void start() throws Exception {
    // The sandbox's Schedule alone: Stripe and Alipay would keep one each.
    payrelay =
        new PayrelayHarness(
            ReconciliationScheduleTest.class,
            java.util.Map.of(
                "PAYRELAY_STRIPE_ENABLED", "false", "PAYRELAY_ALIPAY_ENABLED", "false"));
    handle = payrelay.stack.temporal().schedules().getHandle(ID);
    client = payrelay.stack.temporal().client();
  }

  @AfterAll
  static void stop() throws Exception {
    payrelay.close();
  }

  @Test
  @Order(1)
  void workerStart_keepsAnHourlySchedule_startingTheDailyWorkflow_insteadOfTheTick()
      throws Exception {
    assertThat(payrelay.stack.worker().dailyReconciliation())
        .isEqualTo(DailyReconciliationTrigger.Mode.SCHEDULE);
    ScheduleDescription described = handle.describe();
    Schedule schedule = described.getSchedule();

    assertThat(schedule.getSpec().getIntervals())
        .extracting(ScheduleIntervalSpec::getEvery)
        .containsExactly(Duration.ofHours(1));
    assertThat(schedule.getAction()).isInstanceOf(ScheduleActionStartWorkflow.class);
    ScheduleActionStartWorkflow action = (ScheduleActionStartWorkflow) schedule.getAction();
    assertThat(action.getWorkflowType()).isEqualTo("DailyReconciliationWorkflow");
    assertThat(action.getOptions().getWorkflowId()).isEqualTo(ID);
    assertThat(action.getOptions().getTaskQueue()).isEqualTo(TaskQueues.RECONCILIATION);
    assertThat(action.getOptions().getWorkflowExecutionTimeout()).isEqualTo(Duration.ofMinutes(30));
    assertThat(action.getArguments().get(0, DailyReconciliationInput.class))
        .isEqualTo(new DailyReconciliationInput("sandbox"));
    assertThat(schedule.getPolicy().getOverlap())
        .isEqualTo(ScheduleOverlapPolicy.SCHEDULE_OVERLAP_POLICY_BUFFER_ALL);
    assertThat(schedule.getPolicy().getCatchupWindow()).isEqualTo(Duration.ofDays(2));
    assertThat(schedule.getPolicy().isPauseOnFailure()).isFalse();
    assertThat(schedule.getState().isPaused()).isFalse();
    assertThat((String) described.getMemo("description", String.class))
        .contains("recon-sandbox-{yyyy-MM-dd}");
    assertThat(described.getInfo().getNextActionTimes())
        .first()
        .satisfies(next -> assertThat(next.getEpochSecond() % 3600).as("on the hour").isZero());

    // Created just now, so it was triggered once: yesterday is reconciled at once.
    ScheduleActionResult first = awaitAction(a -> true);
    assertThat(first.getScheduledAt()).isAfter(described.getInfo().getCreatedAt().minusSeconds(5));
    DailyStartResult started = result(first);
    assertThat(started.date()).isEqualTo(dayBefore(first.getScheduledAt()));
    assertThat(started.workflowId()).isEqualTo("recon-sandbox-" + started.date());
  }

  @Test
  @Order(2)
  void trigger_startsYesterdaysReconciliation_whichCompletesOnTheEmptySandboxStatement()
      throws Exception {
    Instant triggeredAt = Instant.now().minusSeconds(1);

    handle.trigger();

    ScheduleActionResult triggered = awaitAction(a -> !a.getScheduledAt().isBefore(triggeredAt));
    assertThat(triggered.getScheduledAt()).isBefore(Instant.now());
    DailyStartResult result = result(triggered);
    assertThat(result.date()).isEqualTo(dayBefore(triggered.getScheduledAt()));
    assertThat(result.workflowId()).isEqualTo("recon-sandbox-" + result.date());
    assertEmptyDayCompleted(result);
  }

  @Test
  @Order(3)
  void backfillOfAnHourThreeDaysAgo_reconcilesTheDayBeforeThatHour_notYesterday() throws Exception {
    Instant hour = Instant.now().truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(72));

    handle.backfill(List.of(new ScheduleBackfill(hour.minusSeconds(1), hour.plusSeconds(1))));

    DailyStartResult result = result(awaitAction(a -> a.getScheduledAt().equals(hour)));
    assertThat(result.date()).isEqualTo(dayBefore(hour));
    assertThat(result.date()).isNotEqualTo(dayBefore(Instant.now()));
    assertThat(result.started()).as("a day never reconciled before").isTrue();
    assertEmptyDayCompleted(result);
  }

  @Test
  @Order(4)
  void secondWorkerStart_leavesOneSchedule_updatedBackToItsDefinition_keepingAnOperatorsPause()
      throws Exception {
    handle.update(
        current ->
            new ScheduleUpdate(
                Schedule.newBuilder(current.getDescription().getSchedule())
                    .setSpec(
                        ScheduleSpec.newBuilder()
                            .setIntervals(List.of(new ScheduleIntervalSpec(Duration.ofMinutes(5))))
                            .build())
                    .build()));
    // The server applies updates and pauses asynchronously, each from the state it was sent with:
    // let the drift land before the operator's pause, and the pause before the worker starts.
    org.awaitility.Awaitility.await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                handle.describe().getSchedule().getSpec().getIntervals().stream()
                    .anyMatch(i -> i.getEvery().equals(Duration.ofMinutes(5))));
    handle.pause("ops: statement feed under maintenance");
    org.awaitility.Awaitility.await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> handle.describe().getSchedule().getState().isPaused());
    Instant drifted = handle.describe().getInfo().getLastUpdatedAt();
    try {
      try (WorkerRuntime second =
          WorkerRuntime.start(
              payrelay.config,
              payrelay.stack.workerServices(),
              payrelay.stack.temporal(),
              "second-worker")) {
        assertThat(second.dailyReconciliation())
            .isEqualTo(DailyReconciliationTrigger.Mode.SCHEDULE);
      }

      ScheduleDescription after = handle.describe();
      assertThat(after.getSchedule().getSpec().getIntervals())
          .extracting(ScheduleIntervalSpec::getEvery)
          .containsExactly(Duration.ofHours(1));
      assertThat(after.getSchedule().getState().isPaused()).isTrue();
      assertThat(after.getSchedule().getState().getNote())
          .isEqualTo("ops: statement feed under maintenance");
      assertThat(after.getInfo().getLastUpdatedAt()).isAfter(drifted);
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () ->
                  assertThat(
                          payrelay.stack.temporal().schedules().listSchedules().toList().stream()
                              .map(s -> s.getScheduleId())
                              .filter(id -> id.startsWith("recon-daily-")))
                      .containsExactly(ID));
    } finally {
      handle.unpause();
    }
  }

  /** The day's run, recorded in Temporal and in our tables: COMPLETED, nothing read, no gaps. */
  private static void assertEmptyDayCompleted(DailyStartResult result) throws Exception {
    ReconciliationSummary summary =
        client
            .newUntypedWorkflowStub(result.workflowId())
            .getResult(ACTION_WAIT.toSeconds(), TimeUnit.SECONDS, ReconciliationSummary.class);
    assertThat(summary.status()).isEqualTo("COMPLETED");
    assertThat(summary.linesRead()).isZero();
    assertThat(summary.itemsByKind().values()).allMatch(n -> n == 0);
    assertThat(
            payrelay
                .stack
                .services()
                .reconciliation()
                .summary("sandbox", LocalDate.parse(result.date()))
                .run()
                .status())
        .isEqualTo(RunStatus.COMPLETED);
  }

  /** Waits for the Schedule's earliest recent action that {@code which} accepts. */
  private static ScheduleActionResult awaitAction(Predicate<ScheduleActionResult> which) {
    return await()
        .atMost(ACTION_WAIT)
        .until(
            () ->
                handle.describe().getInfo().getRecentActions().stream()
                    .filter(which)
                    .min(Comparator.comparing(ScheduleActionResult::getScheduledAt)),
            Optional::isPresent)
        .orElseThrow();
  }

  /** The action's DailyReconciliationWorkflow result, once it completed. */
  private static DailyStartResult result(ScheduleActionResult action) throws Exception {
    String workflowId = ((ScheduleActionExecutionStartWorkflow) action.getAction()).getWorkflowId();
    assertThat(workflowId).startsWith(ID + "-");
    return client
        .newUntypedWorkflowStub(workflowId)
        .getResult(ACTION_WAIT.toSeconds(), TimeUnit.SECONDS, DailyStartResult.class);
  }

  /** The UTC date before {@code at}, ISO-8601. */
  private static String dayBefore(Instant at) {
    return at.atOffset(ZoneOffset.UTC).toLocalDate().minusDays(1).toString();
  }
}

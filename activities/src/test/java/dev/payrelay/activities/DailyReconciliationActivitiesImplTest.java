package dev.payrelay.activities;

import static dev.payrelay.ledger.db.generated.Tables.RECONCILIATION_RUN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.payrelay.domain.event.EventJson;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.ledger.reconciliation.Reconciliation;
import dev.payrelay.ledger.reconciliation.RunStatus;
import dev.payrelay.ledger.testing.TestDatabase;
import dev.payrelay.workflows.ReconciliationInput;
import dev.payrelay.workflows.ReconciliationSummary;
import dev.payrelay.workflows.ReconciliationWorkflow;
import dev.payrelay.workflows.TaskQueues;
import dev.payrelay.workflows.activities.DailyStartResult;
import dev.payrelay.workflows.activities.ReconciliationDay;
import io.temporal.client.WorkflowFailedException;
import io.temporal.failure.ApplicationFailure;
import io.temporal.testing.TestWorkflowEnvironment;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.Map;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The daily start rules on the real database and Temporal's test server, with a stand-in for the
 * day's reconciliation (the real one is tested in {@link ReconciliationIntegrationTest}).
 */
class DailyReconciliationActivitiesImplTest {

  /** A channel whose stand-in reconciliation fails, so its day's Temporal run ends FAILED. */
  private static final String FAILING = "failing";

  // One database and test server for the class: each test uses its own day or channel.
  private static TestDatabase db;
  private static DSLContext dsl;
  private static Reconciliation store;
  private static TestWorkflowEnvironment env;
  private static DailyReconciliationActivitiesImpl starts;

  /** Completes at once, or fails for {@link #FAILING}; what the day's run does is not the point. */
  public static class StandInReconciliation implements ReconciliationWorkflow {
    @Override
    public ReconciliationSummary run(ReconciliationInput input) {
      if (FAILING.equals(input.channel())) {
        throw ApplicationFailure.newNonRetryableFailure("stand-in failure", "STATEMENT_UNREADABLE");
      }
      return new ReconciliationSummary(
          input.channel(), input.date(), "COMPLETED", 1, 1, 0, Map.of(), Map.of(), null);
    }
  }

  @BeforeAll
  static void start() {
    db = TestDatabase.create(DailyReconciliationActivitiesImplTest.class);
    dsl = db.database().dsl();
    OutboxWriter outbox = new OutboxWriter(new EventJson());
    store = new Reconciliation(dsl, new PaymentStore(dsl, outbox), outbox);
    env = TestWorkflowEnvironment.newInstance();
    env.newWorker(TaskQueues.RECONCILIATION)
        .registerWorkflowImplementationTypes(StandInReconciliation.class);
    env.start();
    starts = new DailyReconciliationActivitiesImpl(env.getWorkflowClient(), store);
  }

  @AfterAll
  static void stop() {
    env.close();
    db.close();
  }

  @Test
  void dayNeverRun_isStarted() {
    LocalDate day = today().minusDays(1);

    DailyStartResult result = starts.startDay(new ReconciliationDay("sandbox", day.toString()));

    assertThat(result)
        .isEqualTo(new DailyStartResult("recon-sandbox-" + day, day.toString(), true, false));
    assertThat(completes("recon-sandbox-" + day)).isTrue();
  }

  @Test
  void dayCompletedAfterItEnded_isNotStartedAgain() {
    LocalDate day = today().minusDays(3);
    startAndFinish("sandbox", day, RunStatus.COMPLETED);

    DailyStartResult again = starts.startDay(new ReconciliationDay("sandbox", day.toString()));

    assertThat(again.started()).isFalse();
    assertThat(again.completedEarly()).isFalse();
  }

  @Test
  void failedDay_isStartedAgain() {
    LocalDate day = today().minusDays(2);
    startAndFinish(FAILING, day, RunStatus.FAILED);

    DailyStartResult again = starts.startDay(new ReconciliationDay(FAILING, day.toString()));

    assertThat(again.started()).isTrue();
  }

  @Test
  void dayCompletedBeforeItEnded_isRunOnceMore_thenNotAgain() {
    LocalDate day = today();
    // Started on demand while the day is still going: it saw a partial statement.
    startAndFinish("sandbox", day, RunStatus.COMPLETED);

    DailyStartResult rerun = starts.startDay(new ReconciliationDay("sandbox", day.toString()));
    assertThat(rerun.started()).isTrue();
    assertThat(rerun.completedEarly()).isTrue();
    assertThat(completes(rerun.workflowId())).isTrue();

    // The re-run is recorded as started after the day ended (what the daily start sees tomorrow).
    store.startRun("sandbox", day);
    store.finishRun("sandbox", day, RunStatus.COMPLETED, 1, 0, null);
    dsl.update(RECONCILIATION_RUN)
        .set(RECONCILIATION_RUN.STARTED_AT, day.plusDays(1).atTime(LocalTime.of(0, 5)))
        .where(RECONCILIATION_RUN.CHANNEL.eq("sandbox"))
        .and(RECONCILIATION_RUN.STATEMENT_DATE.eq(day))
        .execute();
    DailyStartResult after = starts.startDay(new ReconciliationDay("sandbox", day.toString()));
    assertThat(after.started()).isFalse();
    assertThat(after.completedEarly()).isFalse();
  }

  @Test
  void notADate_isANonRetryableInvalidRequest() {
    ApplicationFailure failure =
        catchThrowableOfType(
            ApplicationFailure.class,
            () -> starts.startDay(new ReconciliationDay("sandbox", "2026-02-30x")));

    assertThat(failure.getType()).isEqualTo("INVALID_REQUEST");
    assertThat(failure.isNonRetryable()).isTrue();
  }

  /** The daily start, then its run recorded in our tables as the real workflow would. */
  private void startAndFinish(String channel, LocalDate day, RunStatus status) {
    DailyStartResult first = starts.startDay(new ReconciliationDay(channel, day.toString()));
    assertThat(first.started()).isTrue();
    assertThat(completes(first.workflowId())).isEqualTo(status == RunStatus.COMPLETED);
    store.startRun(channel, day);
    store.finishRun(channel, day, status, 1, 0, status == RunStatus.FAILED ? "stand-in" : null);
  }

  /** Waits for the workflow's latest run; whether it completed (else it failed). */
  private boolean completes(String workflowId) {
    try {
      env.getWorkflowClient()
          .newUntypedWorkflowStub(workflowId)
          .getResult(ReconciliationSummary.class);
      return true;
    } catch (WorkflowFailedException e) {
      return false;
    }
  }

  private static LocalDate today() {
    return dsl.select(SqlTime.now()).fetchSingle().value1().toLocalDate();
  }
}

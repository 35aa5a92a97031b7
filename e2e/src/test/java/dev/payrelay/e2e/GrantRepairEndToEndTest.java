package dev.payrelay.e2e;

import static dev.payrelay.ledger.db.generated.Tables.ENTITLEMENT;
import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.workflows.PaymentWorkflow;
import dev.payrelay.workflows.PaymentWorkflowState;
import dev.payrelay.workflows.WorkflowIds;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A grant lost with its workflow is repaired by the worker's grant repair within seconds: the
 * payment's workflow is terminated while its grant waits on a lock and the grant's database session
 * is killed, so the payment stays PAID without entitlements; the repair hands its {@code
 * PaymentConfirmed} to a new run, which grants.
 */
class GrantRepairEndToEndTest {

  private static PayrelayHarness payrelay;
  private static DSLContext dsl;

  @BeforeAll
  static void start() throws Exception {
    payrelay =
        new PayrelayHarness(
            GrantRepairEndToEndTest.class,
            Map.of(
                "PAYRELAY_GRANT_REPAIR", "1s",
                "PAYRELAY_GRANT_REPAIR_AFTER", "2s"));
    dsl = payrelay.stack.services().database().dsl();
  }

  @AfterAll
  static void stop() throws Exception {
    payrelay.close();
  }

  @Test
  void grantLostWithItsWorkflow_isRepairedByANewRun_once() throws Exception {
    WorkflowClient client = payrelay.stack.temporal().client();
    String paymentId;
    try (Connection lock = adminConnection();
        Statement s = lock.createStatement()) {
      s.execute("LOCK TABLES entitlement WRITE");
      paymentId = payrelay.createPayment(1200, "USD", "course-x", "course-y");
      assertThat(payrelay.payAtSandbox(paymentId, "{}").statusCode()).isEqualTo(200);
      String id = paymentId;
      await().atMost(Duration.ofSeconds(30)).until(() -> confirmedSent(id));
      List<Long> grants = new ArrayList<>();
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () -> {
                grants.clear();
                grants.addAll(sessionsWaitingOn(s, "INSERT INTO `entitlement`"));
                return !grants.isEmpty();
              });
      // The workflow is lost and its grant dies with the session: nothing will grant this payment.
      client.newUntypedWorkflowStub(WorkflowIds.payment(paymentId)).terminate("test: lost");
      for (long session : grants) {
        s.execute("KILL " + session);
      }
      s.execute("UNLOCK TABLES");
    }
    assertThat(granted(paymentId)).as("nothing granted by the lost run").isZero();

    String id = paymentId;
    await().atMost(Duration.ofSeconds(30)).until(() -> granted(id) == 2);
    var latest = client.newUntypedWorkflowStub(WorkflowIds.payment(paymentId));
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                latest.describe().getStatus()
                    == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED);
    assertThat(
            client
                .newWorkflowStub(PaymentWorkflow.class, WorkflowIds.payment(paymentId))
                .state()
                .state())
        .isEqualTo(PaymentWorkflowState.FULFILLED);
    Thread.sleep(3_000); // more repair passes: the payment is granted, so none hands it over again
    assertThat(granted(paymentId)).isEqualTo(2);
    assertThat(Payments.events(dsl, paymentId, "PaymentConfirmed"))
        .as("the repair reuses the event; it never writes a new one")
        .isEqualTo(1);
  }

  @Test
  void aLiveRunStillGranting_isNotSignalledAgain_whileItsGrantWaitsOnALock() throws Exception {
    WorkflowClient client = payrelay.stack.temporal().client();
    String paymentId = payrelay.createPayment(1300, "USD", "course-z");
    String userId =
        dsl.select(PAYMENT_ORDER.USER_ID)
            .from(PAYMENT_ORDER)
            .where(PAYMENT_ORDER.PAYMENT_ID.eq(paymentId))
            .fetchSingle(PAYMENT_ORDER.USER_ID);
    long signalsBefore;
    long signalsWhileBlocked;
    try (Connection blocker = adminConnection();
        Statement s = blocker.createStatement()) {
      // An uncommitted row with the grant's unique key: the grant's INSERT waits on its lock,
      // while the repair's reads (consistent reads) still see the payment as not granted.
      blocker.setAutoCommit(false);
      s.execute(
          "INSERT INTO entitlement (user_id, course_id, purchase_id) VALUES ('"
              + userId
              + "', 'course-z', '"
              + paymentId
              + "')");
      assertThat(payrelay.payAtSandbox(paymentId, "{}").statusCode()).isEqualTo(200);
      await().atMost(Duration.ofSeconds(30)).until(() -> confirmedSent(paymentId));
      try (Connection watcher = adminConnection();
          Statement w = watcher.createStatement()) {
        await()
            .atMost(Duration.ofSeconds(30))
            .until(() -> !sessionsWaitingOn(w, "INSERT INTO `entitlement`").isEmpty());
      }
      signalsBefore = outboxSignals(client, paymentId);
      // Past grantRepairAfter (2 s) and several repair passes (every 1 s) with the grant blocked.
      Thread.sleep(6_000);
      signalsWhileBlocked = outboxSignals(client, paymentId);
      blocker.rollback();
    }

    await().atMost(Duration.ofSeconds(30)).until(() -> granted(paymentId) == 1);
    assertThat(signalsWhileBlocked)
        .as("the repair left the live, granting run alone")
        .isEqualTo(signalsBefore);
  }

  /** The {@code onOutboxEvent} signals in the payment's current run's history. */
  private static long outboxSignals(WorkflowClient client, String paymentId) {
    return client.fetchHistory(WorkflowIds.payment(paymentId)).getEvents().stream()
        .filter(HistoryEvent::hasWorkflowExecutionSignaledEventAttributes)
        .filter(
            e ->
                e.getWorkflowExecutionSignaledEventAttributes()
                    .getSignalName()
                    .equals("onOutboxEvent"))
        .count();
  }

  private static boolean confirmedSent(String paymentId) {
    return dsl.fetchCount(
            OUTBOX_EVENT,
            OUTBOX_EVENT
                .AGGREGATE_ID
                .eq(paymentId)
                .and(OUTBOX_EVENT.EVENT_TYPE.eq("PaymentConfirmed"))
                .and(OUTBOX_EVENT.STATUS.eq("SENT")))
        == 1;
  }

  private static int granted(String paymentId) {
    return dsl.fetchCount(ENTITLEMENT, ENTITLEMENT.PURCHASE_ID.eq(paymentId));
  }

  private static List<Long> sessionsWaitingOn(Statement s, String statementPrefix)
      throws Exception {
    List<Long> ids = new ArrayList<>();
    try (ResultSet r =
        s.executeQuery(
            "SELECT id, info FROM information_schema.processlist WHERE db = DATABASE()"
                + " AND info IS NOT NULL")) {
      while (r.next()) {
        if (r.getString(2).toUpperCase().startsWith(statementPrefix.toUpperCase())) {
          ids.add(r.getLong(1));
        }
      }
    }
    return ids;
  }

  private static Connection adminConnection() throws Exception {
    var c = payrelay.db.config();
    return DriverManager.getConnection(c.jdbcUrl(), c.user(), c.password());
  }
}

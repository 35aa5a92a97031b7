package dev.payrelay.e2e;

import static dev.payrelay.workflows.PaymentWorkflowState.AWAITING_PAYMENT;
import static dev.payrelay.workflows.PaymentWorkflowState.CLOSED;
import static dev.payrelay.workflows.PaymentWorkflowState.EXPIRED;
import static dev.payrelay.workflows.PaymentWorkflowState.FULFILLED;
import static dev.payrelay.workflows.PaymentWorkflowState.NEEDS_ATTENTION;
import static io.temporal.api.enums.v1.EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED;
import static io.temporal.api.enums.v1.EventType.EVENT_TYPE_ACTIVITY_TASK_FAILED;
import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.channels.sandbox.SandboxNotification;
import dev.payrelay.e2e.HistoryRecorder.Run;
import dev.payrelay.simulators.sandbox.SandboxMode;
import dev.payrelay.workflows.WorkflowIds;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Records the PaymentWorkflow histories the workflows module replays, one per branch, on the real
 * Temporal dev server: a whole payrelay per test (signed callbacks, the sandbox, the admin API,
 * RabbitMQ). Runs only on purpose, for a new workflow shape (a change that breaks a committed
 * history needs {@code Workflow.getVersion}, not a new recording):
 *
 * <pre>{@code
 * ./mvnw -B -o verify -pl e2e -am -Dtest='*HistoryRecordingTest' \
 *     -Dsurefire.failIfNoSpecifiedTests=false -Dpayrelay.recordHistories=true
 * }</pre>
 *
 * then commit {@code workflows/src/test/resources/histories}.
 */
@EnabledIfSystemProperty(named = "payrelay.recordHistories", matches = "true")
class HistoryRecordingTest {

  /** No daily reconciliation run: only the branch's own workflows on the namespace. */
  static final Map<String, String> QUIET = Map.of("PAYRELAY_RECONCILIATION_DAILY", "false");

  /** Four publish attempts about a second apart, so an unroutable event is DEAD in seconds. */
  private static final Map<String, String> QUICK_PUBLISH_RETRIES =
      with(QUIET, Map.of("PAYRELAY_PUBLISH_RETRY", "*=1s/2s/4"));

  /** Ask the channel after 1 s, then every 1-2 s, until an 8 s deadline; no sweep. */
  private static final Map<String, String> SHORT_DEADLINES =
      with(
          QUIET,
          Map.of(
              "PAYRELAY_QUERY_GRACE", "1s",
              "PAYRELAY_QUERY_INITIAL", "1s",
              "PAYRELAY_QUERY_MAX", "2s",
              "PAYRELAY_PAYMENT_TTL", "8s",
              "PAYRELAY_EXPIRY_SWEEP", "0s"));

  /**
   * The happy path, ACCEPT_AS_PAID and MARK_FOR_REFUND. CLOSE is recorded by {@link
   * #operatorCloseAtTheChannel_recordedOnDefaultTimings}: {@code payment-resolve-close} is the
   * recording from before the {@code operator-close-at-channel} marker, kept to prove such runs
   * replay, and cannot be recorded again.
   */
  @Test
  void happyPathAndEachResolution_recordedOnDefaultTimings() throws Exception {
    try (PayrelayHarness payrelay = new PayrelayHarness(getClass(), QUIET)) {
      HistoryRecorder histories = new HistoryRecorder(payrelay);
      String happy = payrelay.createPayment(1050, "USD", "c1", "c2");
      Run happyRun = histories.currentRun(id(happy));
      payrelay.payAtSandbox(happy, "{}");
      String accepted = underpaid(payrelay);
      String refunded = paidTwice(payrelay);
      Run acceptedRun = histories.awaitRunning(accepted, NEEDS_ATTENTION);
      Run refundedRun = histories.awaitRunning(refunded, NEEDS_ATTENTION);
      resolve(payrelay, accepted, "ACCEPT_AS_PAID");
      resolve(payrelay, refunded, "MARK_FOR_REFUND");

      histories.awaitCompleted(happyRun, FULFILLED);
      histories.awaitCompleted(acceptedRun, FULFILLED);
      histories.awaitCompleted(refundedRun, FULFILLED);
      histories.write("payment-happy-path", happyRun, "LocalActivity");
      histories.write("payment-resolve-accept-as-paid", acceptedRun, "ResolutionResolve");
      histories.write("payment-resolve-mark-for-refund", refundedRun, "ResolutionResolve");
    }
  }

  /**
   * The branches of an operator CLOSE after it closes at the channel first (version marker {@code
   * operator-close-at-channel}): closed at the channel then CLOSED; and refused because the channel
   * says PAID, followed by the ACCEPT_AS_PAID that ends the story.
   */
  @Test
  void operatorCloseAtTheChannel_recordedOnDefaultTimings() throws Exception {
    try (PayrelayHarness payrelay = new PayrelayHarness(getClass(), QUIET)) {
      HistoryRecorder histories = new HistoryRecorder(payrelay);
      String closed = payrelay.createPayment(700, "USD", "c1");
      Run closedRun = histories.currentRun(id(closed));
      String refused = underpaid(payrelay);
      Run refusedRun = histories.awaitRunning(refused, NEEDS_ATTENTION);
      resolve(payrelay, closed, "CLOSE");
      resolve(payrelay, refused, "CLOSE");
      histories.awaitActivities(
          refusedRun, "ResolutionReject", EVENT_TYPE_ACTIVITY_TASK_COMPLETED, 1);
      resolve(payrelay, refused, "ACCEPT_AS_PAID");

      histories.awaitCompleted(closedRun, CLOSED);
      histories.awaitCompleted(refusedRun, FULFILLED);
      histories.write(
          "payment-resolve-close-at-channel",
          closedRun,
          "EVENT_TYPE_MARKER_RECORDED",
          "ChannelClose",
          "ResolutionResolve");
      histories.write(
          "payment-resolve-close-refused-paid-at-channel",
          refusedRun,
          "EVENT_TYPE_MARKER_RECORDED",
          "ChannelClose",
          "LedgerConfirmFromChannel",
          "ResolutionReject",
          "ResolutionResolve");
    }
  }

  /**
   * An operator CLOSE whose identity is checked before the channel is asked (version marker {@code
   * operator-close-identity-first}), on a stack in production mode: a CLOSE the admin API signed,
   * closed at the channel then CLOSED; and a raw CLOSE without a token, refused before the channel
   * is asked, followed by the signed ACCEPT_AS_PAID that ends the story. Writes only these two new
   * files: {@code -Dtest='HistoryRecordingTest#operatorCloseIdentityFirst*'}.
   */
  @Test
  void operatorCloseIdentityFirst_recordedInProductionMode() throws Exception {
    Map<String, String> production = with(QUIET, Map.of("PAYRELAY_PROFILE", "prod"));
    try (PayrelayHarness payrelay = new PayrelayHarness(getClass(), production)) {
      HistoryRecorder histories = new HistoryRecorder(payrelay);
      String closed = payrelay.createPayment(700, "USD", "c1");
      Run closedRun = histories.currentRun(id(closed));
      String refused = underpaid(payrelay);
      Run refusedRun = histories.awaitRunning(refused, NEEDS_ATTENTION);
      resolve(payrelay, closed, "CLOSE");
      payrelay
          .stack
          .temporal()
          .client()
          .newUntypedWorkflowStub(id(refused))
          .signal(
              "resolve", Map.of("operator", "mallory", "reason", "recording", "action", "CLOSE"));
      histories.awaitActivities(
          refusedRun, "ResolutionResolve", EVENT_TYPE_ACTIVITY_TASK_COMPLETED, 1);
      resolve(payrelay, refused, "ACCEPT_AS_PAID");

      histories.awaitCompleted(closedRun, CLOSED);
      histories.awaitCompleted(refusedRun, FULFILLED);
      histories.write(
          "payment-resolve-close-identity-first",
          closedRun,
          "EVENT_TYPE_MARKER_RECORDED",
          "ResolutionMayApply",
          "ChannelClose",
          "ResolutionResolve");
      histories.write(
          "payment-resolve-close-refused-unverified",
          refusedRun,
          "EVENT_TYPE_MARKER_RECORDED",
          "ResolutionMayApply",
          "ResolutionResolve");
    }
  }

  /**
   * A refund the channel reports after the payment's run ended FULFILLED: its exception starts a
   * new run, which needs attention until an operator's ACKNOWLEDGE (version marker {@code
   * operator-acknowledge}).
   */
  @Test
  void refundAcknowledged_recordedOnDefaultTimings() throws Exception {
    try (PayrelayHarness payrelay = new PayrelayHarness(getClass(), QUIET)) {
      HistoryRecorder histories = new HistoryRecorder(payrelay);
      String paymentId = payrelay.createPayment(1050, "USD", "c1");
      Run paidRun = histories.currentRun(id(paymentId));
      String txn = "sbx_paid_" + paymentId;
      assertThat(payrelay.postPaidCallback(paymentId, txn, "10.50", "USD").statusCode())
          .isEqualTo(200);
      histories.awaitCompleted(paidRun, FULFILLED);
      PayrelayHarness.SignedCallback refund =
          payrelay.signedCallback(
              new SandboxNotification(
                  "ntf_refund_" + paymentId,
                  payrelay.config.sandbox().merchantId(),
                  paymentId,
                  txn,
                  "10.50",
                  "USD",
                  "REFUNDED",
                  Instant.now()));
      assertThat(payrelay.postWebhook(refund.raw(), refund.headers()).statusCode()).isEqualTo(200);
      Run refundRun = histories.awaitRunning(paymentId, NEEDS_ATTENTION);
      resolve(payrelay, paymentId, "ACKNOWLEDGE");

      histories.awaitCompleted(refundRun, FULFILLED);
      histories.write(
          "payment-resolve-acknowledge-refund",
          refundRun,
          "EVENT_TYPE_MARKER_RECORDED",
          "ResolutionResolve");
    }
  }

  @Test
  void publishRetriesAndDeadEvents_recordedWhileTheQueueIsUnbound() throws Exception {
    try (PayrelayHarness payrelay = new PayrelayHarness(getClass(), QUICK_PUBLISH_RETRIES)) {
      HistoryRecorder histories = new HistoryRecorder(payrelay);
      List<String> payments = List.of(created(payrelay), created(payrelay), created(payrelay));
      String retried = created(payrelay);
      // PaymentCreated goes out while the queue is bound; only PaymentConfirmed meets the outage.
      for (String id : payments) {
        histories.awaitOutboxStatus(id, "PaymentCreated", "SENT");
      }
      histories.awaitOutboxStatus(retried, "PaymentCreated", "SENT");
      payrelay.routeEvents(false);
      List<Dead> dead = paidIntoDeadLetters(payrelay, histories, payments);
      Run retriedRun = histories.currentRun(id(retried));
      payrelay.payAtSandbox(retried, "{}");
      histories.awaitActivities(retriedRun, "OutboxPublish", EVENT_TYPE_ACTIVITY_TASK_FAILED, 1);
      payrelay.routeEvents(true);
      eventOperation(payrelay, dead.get(1).eventId(), "replay");
      eventOperation(payrelay, dead.get(2).eventId(), "discard");

      histories.awaitCompleted(retriedRun, FULFILLED);
      histories.awaitCompleted(dead.get(1).run(), FULFILLED);
      histories.awaitCompleted(dead.get(2).run(), FULFILLED);
      histories.write(
          "payment-publish-retry-then-sent", retriedRun, "EVENT_TYPE_ACTIVITY_TASK_FAILED");
      histories.write("payment-publish-dead", dead.get(0).run(), "OutboxMarkDead");
      histories.write("payment-dead-replayed", dead.get(1).run(), "OutboxReplayDead");
      histories.write("payment-dead-discarded", dead.get(2).run(), "OutboxDiscardDead");
    }
  }

  @Test
  void unknownStateAndExpiry_recordedOnShortDeadlines() throws Exception {
    try (PayrelayHarness payrelay = new PayrelayHarness(getClass(), SHORT_DEADLINES)) {
      HistoryRecorder histories = new HistoryRecorder(payrelay);
      String queried = payrelay.createPayment(1050, "USD", "c1");
      payrelay.stack.sandbox().setMode(queried, SandboxMode.NORMAL.droppingCallbacks());
      String expired = payrelay.createPayment(500, "JPY", "c1");
      Run queriedRun = histories.currentRun(id(queried));
      Run expiredRun = histories.currentRun(id(expired));
      // Paid after one "not paid" answer, so the watch loops before it confirms.
      histories.awaitActivities(queriedRun, "ChannelQuery", EVENT_TYPE_ACTIVITY_TASK_COMPLETED, 1);
      payrelay.payAtSandbox(queried, "{}");

      histories.awaitCompleted(queriedRun, FULFILLED);
      histories.awaitCompleted(expiredRun, EXPIRED);
      histories.write(
          "payment-unknown-state-query-confirms", queriedRun, "LedgerConfirmFromChannel");
      histories.write(
          "payment-expired", expiredRun, "ChannelQuery", "ChannelClose", "LedgerExpire");
    }
  }

  /**
   * Version {@code settled-lifecycle}: the channel says paid with the wrong amount, so the watch
   * keeps the deadline; at it the close and the expiry are tried, the ledger refuses the expiry
   * while the AMOUNT_MISMATCH is open, and the operator's MARK_FOR_REFUND lets the run expire it.
   */
  @Test
  void underpaidMarkedForRefundThenExpired_recordedOnShortDeadlines() throws Exception {
    try (PayrelayHarness payrelay = new PayrelayHarness(getClass(), SHORT_DEADLINES)) {
      HistoryRecorder histories = new HistoryRecorder(payrelay);
      String paymentId = underpaid(payrelay);
      Run run = histories.currentRun(id(paymentId));
      histories.awaitActivities(run, "LedgerExpire", EVENT_TYPE_ACTIVITY_TASK_COMPLETED, 1);
      resolve(payrelay, paymentId, "MARK_FOR_REFUND");

      histories.awaitCompleted(run, EXPIRED);
      histories.write(
          "payment-underpaid-marked-for-refund-expired",
          run,
          "LedgerConfirmFromChannel",
          "ChannelClose",
          "LedgerExpire");
    }
  }

  /**
   * Version {@code query-attention}: the callback is dropped and the first 9 queries (3 activities
   * of 3 attempts) answer 503, so the payment needs attention; the next query answers (not paid)
   * and clears it; then the buyer pays and a query confirms.
   */
  @Test
  void channelQueriesFailingThenAnswering_recordedOnShortQueryIntervals() throws Exception {
    Map<String, String> env =
        with(
            QUIET,
            Map.of(
                "PAYRELAY_QUERY_GRACE", "1s",
                "PAYRELAY_QUERY_INITIAL", "1s",
                "PAYRELAY_QUERY_MAX", "2s",
                "PAYRELAY_PAYMENT_TTL", "120s",
                "PAYRELAY_EXPIRY_SWEEP", "0s"));
    try (PayrelayHarness payrelay = new PayrelayHarness(getClass(), env)) {
      HistoryRecorder histories = new HistoryRecorder(payrelay);
      String paymentId = payrelay.createPayment(1050, "USD", "c1");
      payrelay
          .stack
          .sandbox()
          .setMode(paymentId, SandboxMode.NORMAL.droppingCallbacks().failingQueries(9));
      Run run = histories.awaitRunning(paymentId, NEEDS_ATTENTION);
      histories.awaitActivities(run, "ChannelQuery", EVENT_TYPE_ACTIVITY_TASK_COMPLETED, 1);
      histories.awaitRunning(paymentId, AWAITING_PAYMENT);
      payrelay.payAtSandbox(paymentId, "{}");

      histories.awaitCompleted(run, FULFILLED);
      histories.write(
          "payment-channel-queries-failing", run, "ChannelQuery", "LedgerConfirmFromChannel");
    }
  }

  /** A payment the sandbox pays 10.00 of 10.50 USD: an AMOUNT_MISMATCH exception is open. */
  private static String underpaid(PayrelayHarness payrelay) throws Exception {
    String paymentId = payrelay.createPayment(1050, "USD", "c1");
    payrelay.payAtSandbox(paymentId, "{\"amount\":\"10.00\"}");
    return paymentId;
  }

  /** A payment confirmed by one transaction and charged again by a second: DOUBLE_PAYMENT. */
  private static String paidTwice(PayrelayHarness payrelay) throws Exception {
    String paymentId = payrelay.createPayment(1050, "USD", "c1");
    for (String txn : List.of("sbx_first_" + paymentId, "sbx_second_" + paymentId)) {
      assertThat(payrelay.postPaidCallback(paymentId, txn, "10.50", "USD").statusCode())
          .isEqualTo(200);
    }
    return paymentId;
  }

  /** A payment's run waiting for an operator and its PaymentConfirmed event, DEAD. */
  private record Dead(Run run, String eventId) {}

  /** Pays each payment while events are unroutable; waits until its PaymentConfirmed is DEAD. */
  private static List<Dead> paidIntoDeadLetters(
      PayrelayHarness payrelay, HistoryRecorder histories, List<String> paymentIds)
      throws Exception {
    for (String id : paymentIds) {
      payrelay.payAtSandbox(id, "{}");
    }
    List<Dead> dead = new ArrayList<>();
    for (String id : paymentIds) {
      String eventId = histories.awaitOutboxStatus(id, "PaymentConfirmed", "DEAD");
      dead.add(new Dead(histories.awaitRunning(id, NEEDS_ATTENTION), eventId));
    }
    return dead;
  }

  private static String created(PayrelayHarness payrelay) throws Exception {
    return payrelay.createPayment(700, "USD", "c1");
  }

  private static void resolve(PayrelayHarness payrelay, String paymentId, String action)
      throws Exception {
    HttpResponse<String> r =
        payrelay.postJson(
            "/v1/admin/payments/" + paymentId + "/resolve",
            "{\"operator\":\"alice\",\"reason\":\"recording\",\"action\":\"" + action + "\"}");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
  }

  private static void eventOperation(PayrelayHarness payrelay, String eventId, String operation)
      throws Exception {
    HttpResponse<String> r =
        payrelay.postJson(
            "/v1/admin/outbox/" + eventId + "/" + operation,
            "{\"operator\":\"alice\",\"reason\":\"recording\"}");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
  }

  private static String id(String paymentId) {
    return WorkflowIds.payment(paymentId);
  }

  private static Map<String, String> with(Map<String, String> base, Map<String, String> more) {
    Map<String, String> env = new HashMap<>(base);
    env.putAll(more);
    return Map.copyOf(env);
  }
}

package dev.payrelay.e2e;

import static dev.payrelay.ledger.db.generated.Tables.CONSUMER_INBOX;
import static dev.payrelay.ledger.db.generated.Tables.ENTITLEMENT;
import static dev.payrelay.ledger.db.generated.Tables.OPERATOR_ACTION;
import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;
import static dev.payrelay.ledger.db.generated.Tables.REFUND;
import static dev.payrelay.ledger.db.generated.Tables.REFUND_SUBMISSION;
import static dev.payrelay.ledger.db.generated.Tables.WEBHOOK_INBOX;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import dev.payrelay.app.config.ConsumersSettings;
import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.temporal.TemporalConnection;
import dev.payrelay.domain.crash.CrashPoint;
import dev.payrelay.domain.crash.CrashPoints;
import dev.payrelay.ledger.db.generated.tables.records.RefundRecord;
import dev.payrelay.ledger.payment.Notifications;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.ledger.testing.TestDatabase;
import dev.payrelay.simulators.RefundMode;
import dev.payrelay.simulators.RefundMode.Callbacks;
import dev.payrelay.simulators.sandbox.SandboxMode;
import dev.payrelay.simulators.sandbox.SandboxSimulator;
import dev.payrelay.simulators.sandbox.SandboxSimulatorConfig;
import dev.payrelay.tools.soak.ChildPayrelay;
import dev.payrelay.workflows.RefundView;
import dev.payrelay.workflows.WorkflowIds;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every crash point of issue 10, proven the way the field proves "nothing lost, nothing twice":
 * payrelay's {@code api} and {@code worker} run as child JVMs against the real MariaDB, RabbitMQ
 * and Temporal dev server (which outlives them); a payment goes through the sandbox channel (run in
 * this JVM, so its callback retries outlive the api, as a real channel's do); the child armed with
 * {@code PAYRELAY_CRASH_AT} halts at the point (exit status {@link CrashPoints#HALT_STATUS}); it is
 * started again unarmed; then the books are checked: PAID once, one PaymentConfirmed, SENT and on
 * the queue, every course granted once, and {@code payrelay check} finds nothing.
 *
 * <p>The safety nets that would hide a broken recovery are out of reach (grant repair and expiry
 * sweep after a day, re-dispatch after 10 minutes), and the dispatcher's claim lease (5 minutes) is
 * longer than the test waits: a claim held by the killed worker comes back only through the
 * restarted worker's take-back of its own claims. What the restart waits for is Temporal's
 * start-to-close timeout of the activity the killed worker held (30 s at most; a refund's submit,
 * 60 s).
 *
 * <p>The refund points (issue 28 item 7) are proven on a full refund of a paid payment whose refund
 * callbacks the sandbox drops, so only the workflow's submit and queries settle it: the refund
 * SUCCEEDED once, the channel saw one submit under our one refund number, one {@code
 * PaymentRefunded} in the outbox and on the queue, the grants revoked once, and never more refunded
 * than captured.
 */
class CrashPointsEndToEndTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SECRET = "crash-points-secret";
  private static final String OWNER = "crash-worker";
  private static final Duration STARTED = Duration.ofSeconds(90);
  private static final Duration CRASHED = Duration.ofSeconds(60);
  private static final Duration RECOVERED = Duration.ofSeconds(120);
  private static final Path LOGS = Path.of("target", "crash-points");
  private static final List<String> COURSES = List.of("c-java", "c-sql");
  private static final long AMOUNT_MINOR = 1050;

  /** Refunds made as a well-behaved channel makes them, their callbacks never sent. */
  private static final RefundMode SILENT =
      RefundMode.NORMAL.callbacks(Callbacks.DROP, Duration.ZERO);

  private static TestDatabase db;
  private static DSLContext dsl;
  private static SandboxSimulator sandbox;
  private static Map<String, String> env;
  private static int apiPort;
  private static String queue;
  private static String exchange;
  private static Connection amqp;
  private static TemporalConnection temporal;
  private static final HttpClient http = HttpClient.newHttpClient();

  /**
   * An api without a crash point, kept from test to test while it lives ({@link #unarmedApi()}): a
   * child's start is most of a test's time. A test that arms the api stops it first (one port).
   */
  private static ChildPayrelay unarmedApi;

  private ChildPayrelay api;
  private ChildPayrelay worker;
  private String testName;
  private int lives;

  @BeforeAll
  static void setUp() throws Exception {
    db = TestDatabase.create(CrashPointsEndToEndTest.class);
    dsl = db.database().dsl();
    exchange = "payrelay.test.crashpoints." + UUID.randomUUID().toString().substring(0, 8);
    queue = exchange + ".events";
    apiPort = PayrelayHarness.freePort();
    int sandboxPort = PayrelayHarness.freePort();
    env = new HashMap<>();
    env.put("PAYRELAY_DB_URL", db.config().jdbcUrl());
    env.put("PAYRELAY_DB_USER", db.config().user());
    env.put("PAYRELAY_DB_PASSWORD", db.config().password());
    env.put("PAYRELAY_AMQP_EXCHANGE", exchange);
    env.put("PAYRELAY_AMQP_QUEUES", queue + "=payment.#");
    env.putAll(RealTemporal.env(CrashPointsEndToEndTest.class));
    env.put("PAYRELAY_API_PORT", String.valueOf(apiPort));
    env.put("PAYRELAY_SANDBOX_URL", "http://127.0.0.1:" + sandboxPort);
    env.put("PAYRELAY_SANDBOX_SECRET", SECRET);
    env.put("PAYRELAY_API_KEYS", PayrelayHarness.KEY.line());
    env.put("PAYRELAY_API_KEY", PayrelayHarness.KEY.token());
    env.put("PAYRELAY_RECONCILIATION_DAILY", "false");
    env.put("PAYRELAY_CONSUMER_QUEUE_PREFIX", exchange);
    env.put("PAYRELAY_DISPATCH_POLL_MAX", "200ms");
    env.put("PAYRELAY_DISPATCH_LEASE", "5m");
    env.put("PAYRELAY_DISPATCH_REDISPATCH", "10m");
    env.put("PAYRELAY_GRANT_REPAIR_AFTER", "1d");
    env.put("PAYRELAY_EXPIRY_SWEEP_GRACE", "1d");
    // The channel is asked only where a test drops the callback (queryAnswer below).
    env.put("PAYRELAY_QUERY_GRACE", "1h");
    // An unknown refund is asked about within seconds.
    env.put("PAYRELAY_REFUND_QUERY_INITIAL", "1s");
    env.put("PAYRELAY_REFUND_QUERY_MAX", "2s");
    sandbox =
        new SandboxSimulator(
            SandboxSimulatorConfig.withDefaults("127.0.0.1", sandboxPort, "m_payrelay_dev", SECRET),
            Clock.systemUTC(),
            HttpClient.newHttpClient());
    sandbox.start();
    ConnectionFactory factory = new ConnectionFactory();
    factory.setUri(PayrelayConfig.fromEnv(env).amqp().uri());
    amqp = factory.newConnection("payrelay-crash-points-reader");
    temporal = TemporalConnection.client(PayrelayConfig.fromEnv(env).temporal());
  }

  @AfterAll
  static void tearDown() throws Exception {
    if (unarmedApi != null) {
      unarmedApi.close();
    }
    sandbox.close();
    try (Channel ch = amqp.createChannel()) {
      ch.queueDelete(queue);
      for (String q : PayrelayConfig.fromEnv(env).consumers().queues()) {
        ch.queueDelete(q);
      }
      ch.exchangeDelete(exchange);
    }
    amqp.close();
    temporal.close();
    db.close();
  }

  @AfterEach
  void stopChildren() throws InterruptedException {
    if (api != null && api != unarmedApi) {
      api.close();
    }
    if (worker != null) {
      worker.close();
    }
  }

  @Test
  void everyCrashPoint_hasItsTestHere() throws Exception {
    Set<String> covered =
        new HashSet<>(
            List.of(
                getClass()
                    .getDeclaredMethod("paidByCallback_crashedAt", CrashPoint.class)
                    .getAnnotation(EnumSource.class)
                    .names()));
    covered.add(CrashPoint.QUERY_CONFIRM_AFTER_COMMIT.name());
    covered.add(CrashPoint.OPERATOR_AFTER_COMMIT.name());
    covered.add(CrashPoint.CONSUMER_AFTER_COMMIT.name());
    covered.add(CrashPoint.REFUND_REQUEST_AFTER_COMMIT.name());
    covered.add(CrashPoint.REFUND_SUBMIT_AFTER_ANSWER.name());
    covered.add(CrashPoint.REFUND_SUCCEEDED_AFTER_COMMIT.name());
    assertThat(covered)
        .containsExactlyInAnyOrderElementsOf(
            java.util.Arrays.stream(CrashPoint.values()).map(Enum::name).toList());
  }

  /** The points a payment confirmed by the channel's callback passes. */
  @ParameterizedTest(name = "{0}")
  @EnumSource(
      value = CrashPoint.class,
      names = {
        "WEBHOOK_BEFORE_COMMIT",
        "WEBHOOK_AFTER_COMMIT",
        "DISPATCH_AFTER_CLAIM",
        "DISPATCH_AFTER_HANDOFF",
        "PUBLISH_AFTER_CONFIRM",
        "PUBLISH_AFTER_SENT",
        "GRANT_AFTER_COMMIT"
      })
  void paidByCallback_crashedAt(CrashPoint point) throws Exception {
    testName = point.label();
    paidByCallback(point);
  }

  @Test
  void queryConfirmAfterCommit(TestInfo test) throws Exception {
    testName = test.getTestMethod().orElseThrow().getName();
    // The callback never comes: only the workflow's query of the channel can find it PAID.
    Map<String, String> asking = Map.of("PAYRELAY_QUERY_GRACE", "1s");
    api = unarmedApi();
    worker =
        start("worker", withCrash(CrashPoint.QUERY_CONFIRM_AFTER_COMMIT, asking), "--owner", OWNER);
    String paymentId = createPaymentAndAwaitCreatedSent();
    sandbox.setMode(paymentId, SandboxMode.NORMAL.droppingCallbacks());
    pay(paymentId, "{}");

    assertThat(worker.awaitExit(CRASHED)).isEqualTo(CrashPoints.HALT_STATUS);
    assertThat(status(paymentId)).as("the query's confirm committed").isEqualTo("PAID");
    worker = start("worker", asking, "--owner", OWNER);

    assertBooksBalanced(paymentId);
    assertThat(confirmedPayload(paymentId)).contains("\"source\":\"QUERY\"");
  }

  @Test
  void operatorAfterCommit(TestInfo test) throws Exception {
    testName = test.getTestMethod().orElseThrow().getName();
    api = unarmedApi();
    worker =
        start("worker", withCrash(CrashPoint.OPERATOR_AFTER_COMMIT, Map.of()), "--owner", OWNER);
    String paymentId = createPaymentAndAwaitCreatedSent();
    // 10.00 paid on a 10.50 payment: an exception the operator accepts as paid.
    pay(paymentId, "{\"amount\":\"10.00\"}");
    await().atMost(RECOVERED).until(() -> sent(paymentId, "PaymentExceptionRecorded"));
    HttpResponse<String> resolve =
        post(
            URI.create(
                "http://127.0.0.1:" + apiPort + "/v1/admin/payments/" + paymentId + "/resolve"),
            "{\"operator\":\"alice\",\"reason\":\"channel confirmed 10.00 by phone\","
                + "\"action\":\"ACCEPT_AS_PAID\"}");
    assertThat(resolve.statusCode()).as(resolve.body()).isEqualTo(202);

    assertThat(worker.awaitExit(CRASHED)).isEqualTo(CrashPoints.HALT_STATUS);
    assertThat(status(paymentId)).as("the resolution committed").isEqualTo("PAID");
    worker = start("worker", Map.of(), "--owner", OWNER);

    assertBooksBalanced(paymentId);
    assertThat(
            dsl.fetchCount(
                OPERATOR_ACTION,
                OPERATOR_ACTION
                    .TARGET_ID
                    .eq(paymentId)
                    .and(OPERATOR_ACTION.ACTION.eq("ACCEPT_AS_PAID"))))
        .as("the retried activity answered from its audit row, not by acting again")
        .isEqualTo(1);
  }

  @Test
  void consumerAfterCommit(TestInfo test) throws Exception {
    testName = test.getTestMethod().orElseThrow().getName();
    api = unarmedApi();
    // The notifications consumer binds payment.confirmed only: its first commit is this payment's.
    worker =
        start("worker", withCrash(CrashPoint.CONSUMER_AFTER_COMMIT, Map.of()), "--owner", OWNER);
    String paymentId = createPaymentAndAwaitCreatedSent();
    pay(paymentId, "{}");

    assertThat(worker.awaitExit(CRASHED)).isEqualTo(CrashPoints.HALT_STATUS);
    assertThat(notifications(paymentId)).as("the consumer's commit went through").isEqualTo(1);
    worker = start("worker", Map.of(), "--owner", OWNER);

    assertBooksBalanced(paymentId);
    String work = PayrelayConfig.fromEnv(env).consumers().notificationsConsumer().queues().work();
    // The unacked delivery came back to the restarted consumer, which found its inbox row.
    await()
        .atMost(RECOVERED)
        .until(
            () -> {
              try (Channel ch = amqp.createChannel()) {
                return ch.queueDeclarePassive(work).getMessageCount() == 0
                    && ch.queueDeclarePassive(work).getConsumerCount() > 0;
              }
            });
    worker.awaitLog("already processed; acking", RECOVERED);
    assertThat(notifications(paymentId)).isEqualTo(1);
  }

  @Test
  void refundRequestAfterCommit(TestInfo test) throws Exception {
    testName = test.getTestMethod().orElseThrow().getName();
    api = start("api", withCrash(CrashPoint.REFUND_REQUEST_AFTER_COMMIT, Map.of()));
    worker = start("worker", Map.of(), "--owner", OWNER);
    String paymentId = paidPayment();
    String key = UUID.randomUUID().toString();

    assertThatThrownBy(() -> requestRefund(paymentId, key))
        .as("the api halted before it answered")
        .isInstanceOf(IOException.class);
    assertThat(api.awaitExit(CRASHED)).isEqualTo(CrashPoints.HALT_STATUS);
    assertThat(refunds(paymentId)).as("the request committed").hasSize(1);
    api = unarmedApi();
    // The caller, without an answer, asks again with its Idempotency-Key.
    HttpResponse<String> again = requestRefund(paymentId, key);

    assertThat(again.statusCode()).as(again.body()).isEqualTo(200);
    String refundId = JSON.readTree(again.body()).path("refundId").asText();
    assertThat(refundId).isEqualTo(refunds(paymentId).getFirst().getRefundId());
    assertRefundedOnce(paymentId, refundId);
  }

  @Test
  void refundSubmitAfterAnswer(TestInfo test) throws Exception {
    testName = test.getTestMethod().orElseThrow().getName();
    api = unarmedApi();
    worker =
        start(
            "worker", withCrash(CrashPoint.REFUND_SUBMIT_AFTER_ANSWER, Map.of()), "--owner", OWNER);
    String paymentId = paidPayment();
    String refundId = requestedRefund(paymentId);

    assertThat(worker.awaitExit(CRASHED)).isEqualTo(CrashPoints.HALT_STATUS);
    assertThat(sandbox.refunds(paymentId)).as("the channel made the refund").hasSize(1);
    assertThat(refund(refundId).getState()).as("its answer never recorded").isEqualTo("UNKNOWN");
    worker = start("worker", Map.of(), "--owner", OWNER);

    assertRefundedOnce(paymentId, refundId);
    worker.awaitLog("submission 1 found unanswered", RECOVERED);
    assertThat(sandbox.refundCalls(refund(refundId).getRefundNo()).queries())
        .as("the unknown result was resolved by a query")
        .isGreaterThanOrEqualTo(1);
  }

  @Test
  void refundSucceededAfterCommit(TestInfo test) throws Exception {
    testName = test.getTestMethod().orElseThrow().getName();
    api = unarmedApi();
    worker =
        start(
            "worker",
            withCrash(CrashPoint.REFUND_SUCCEEDED_AFTER_COMMIT, Map.of()),
            "--owner",
            OWNER);
    String paymentId = paidPayment();
    String refundId = requestedRefund(paymentId);

    assertThat(worker.awaitExit(CRASHED)).isEqualTo(CrashPoints.HALT_STATUS);
    assertThat(refund(refundId).getState()).isEqualTo("SUCCEEDED");
    assertThat(outboxStatus(paymentId, "PaymentRefunded"))
        .as("its event committed, not yet published")
        .isNotEqualTo("SENT");
    worker = start("worker", Map.of(), "--owner", OWNER);

    assertRefundedOnce(paymentId, refundId);
    assertThat(sandbox.refundCalls(refund(refundId).getRefundNo()).queries())
        .as("the retried submit answered from its recorded row")
        .isZero();
  }

  /** CONSUMER_AFTER_COMMIT on the entitlements consumer: the PaymentRefunded revocation. */
  @Test
  void revocationAfterConsumerCommit(TestInfo test) throws Exception {
    testName = test.getTestMethod().orElseThrow().getName();
    api = unarmedApi();
    // Passage 1 is the notifications consumer's PaymentConfirmed, passage 2 the revocation.
    worker =
        start(
            "worker",
            Map.of("PAYRELAY_CRASH_AT", CrashPoint.CONSUMER_AFTER_COMMIT.label() + ":2"),
            "--owner",
            OWNER);
    String paymentId = paidPayment();
    await().atMost(RECOVERED).until(() -> notifications(paymentId) == 1);
    String refundId = requestedRefund(paymentId);

    assertThat(worker.awaitExit(CRASHED)).isEqualTo(CrashPoints.HALT_STATUS);
    assertThat(revoked(refundId)).as("the revocation committed").isEqualTo(COURSES.size());
    worker = start("worker", Map.of(), "--owner", OWNER);

    String eventId = assertRefundedOnce(paymentId, refundId);
    // The unacked delivery came back to the restarted consumer, which found its inbox row.
    worker.awaitLog(
        "consumer " + ConsumersSettings.ENTITLEMENTS + ": event " + eventId + " already processed",
        RECOVERED);
  }

  /** A sandbox payment, paid by the channel's callback: PaymentConfirmed SENT, courses granted. */
  private String paidPayment() throws Exception {
    String paymentId = createPaymentAndAwaitCreatedSent();
    sandbox.setRefundMode(paymentId, SILENT);
    pay(paymentId, "{}");
    await()
        .atMost(RECOVERED)
        .until(() -> sent(paymentId, "PaymentConfirmed") && granted(paymentId) == COURSES.size());
    return paymentId;
  }

  /** Requests the full refund of the payment through the api; returns its refund id. */
  private String requestedRefund(String paymentId) throws Exception {
    HttpResponse<String> r = requestRefund(paymentId, UUID.randomUUID().toString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    return JSON.readTree(r.body()).path("refundId").asText();
  }

  private HttpResponse<String> requestRefund(String paymentId, String idempotencyKey)
      throws Exception {
    return http.send(
        HttpRequest.newBuilder(
                URI.create(
                    "http://127.0.0.1:" + apiPort + "/v1/payments/" + paymentId + "/refunds"))
            .header("Content-Type", "application/json")
            .header("Authorization", "Bearer " + PayrelayHarness.KEY.token())
            .header("Idempotency-Key", idempotencyKey)
            .timeout(Duration.ofSeconds(30))
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    "{\"amountMinor\":" + AMOUNT_MINOR + ",\"reason\":\"crash points\"}"))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /**
   * Nothing lost, nothing twice for a full refund: SUCCEEDED once and the payment REFUNDED, never
   * more than captured; one submission, and the channel saw one submit under our one refund number;
   * one PaymentRefunded in the outbox, SENT, and only its message id on the queue; each grant
   * revoked once by this refund through one inbox row; its workflow ended SUCCEEDED; and {@code
   * payrelay check} finds nothing.
   *
   * @return the PaymentRefunded event's id
   */
  private String assertRefundedOnce(String paymentId, String refundId) throws Exception {
    await()
        .atMost(RECOVERED)
        .until(() -> sent(paymentId, "PaymentRefunded") && revoked(refundId) == COURSES.size());
    RefundRecord refund = refund(refundId);
    assertThat(refunds(paymentId)).as("one refund row, one refund number").hasSize(1);
    assertThat(refund.getState()).isEqualTo("SUCCEEDED");
    assertThat(refund.getAmountMinor()).isLessThanOrEqualTo(AMOUNT_MINOR);
    assertThat(status(paymentId)).isEqualTo("REFUNDED");
    assertThat(dsl.fetchCount(REFUND_SUBMISSION, REFUND_SUBMISSION.REFUND_ID.eq(refundId)))
        .as("submitted once, never resubmitted")
        .isEqualTo(1);
    assertThat(sandbox.refundCalls(refund.getRefundNo()).submits())
        .as("the channel saw one submit")
        .isEqualTo(1);
    assertThat(sandbox.refunds(paymentId))
        .as("under our one number")
        .singleElement()
        .satisfies(r -> assertThat(r.refundNo()).isEqualTo(refund.getRefundNo()));
    assertThat(Payments.events(dsl, paymentId, "PaymentRefunded")).isEqualTo(1);
    String eventId = eventId(paymentId, "PaymentRefunded");
    assertThat(
            drainQueue().stream()
                .filter(m -> "PaymentRefunded".equals(m.type()) && m.body().contains(paymentId))
                .map(QueuedMessage::id)
                .distinct())
        .as("one PaymentRefunded on the queue (copies carry its message id)")
        .containsExactly(eventId);
    assertThat(
            dsl.fetchCount(
                CONSUMER_INBOX,
                CONSUMER_INBOX
                    .CONSUMER_NAME
                    .eq(ConsumersSettings.ENTITLEMENTS)
                    .and(CONSUMER_INBOX.EVENT_ID.eq(eventId))))
        .as("one revocation")
        .isEqualTo(1);
    RefundView view =
        temporal
            .client()
            .newUntypedWorkflowStub(WorkflowIds.refund(refundId))
            .getResult(RECOVERED.toSeconds(), TimeUnit.SECONDS, RefundView.class);
    assertThat(view.ledgerState()).isEqualTo("SUCCEEDED");
    assertThat(view.submissions()).isEqualTo(1);
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              CliRun check = CliRun.of(env, "check", "--json", "--older-than", "0s");
              assertThat(check.exit()).as(check.out() + check.err()).isZero();
            });
    return eventId;
  }

  private static List<RefundRecord> refunds(String paymentId) {
    return dsl.selectFrom(REFUND).where(REFUND.PAYMENT_ID.eq(paymentId)).fetch();
  }

  private static RefundRecord refund(String refundId) {
    return dsl.selectFrom(REFUND).where(REFUND.REFUND_ID.eq(refundId)).fetchSingle();
  }

  /** The purchase's grants revoked by {@code refundId}. */
  private static int revoked(String refundId) {
    return dsl.fetchCount(ENTITLEMENT, ENTITLEMENT.REVOKED_BY_REFUND.eq(refundId));
  }

  private static int notifications(String paymentId) {
    return Notifications.count(dsl, paymentId, Notifications.COURSES_UNLOCKED);
  }

  /**
   * The common case: the buyer pays, the channel's callback confirms, the event is published and
   * the courses granted; {@code point} is armed in the api (webhook points) or the worker.
   */
  private void paidByCallback(CrashPoint point) throws Exception {
    boolean inApi = point.label().startsWith("webhook.");
    api = inApi ? start("api", withCrash(point, Map.of())) : unarmedApi();
    worker = start("worker", inApi ? Map.of() : withCrash(point, Map.of()), "--owner", OWNER);
    String paymentId = createPaymentAndAwaitCreatedSent();
    pay(paymentId, "{}");

    ChildPayrelay crashed = inApi ? api : worker;
    assertThat(crashed.awaitExit(CRASHED))
        .as("halted at " + point.label())
        .isEqualTo(CrashPoints.HALT_STATUS);
    if (point == CrashPoint.WEBHOOK_BEFORE_COMMIT) {
      assertThat(status(paymentId)).as("the transaction died uncommitted").isEqualTo("PENDING");
    } else {
      assertThat(status(paymentId)).isEqualTo("PAID");
    }
    if (inApi) {
      api = unarmedApi();
    } else {
      worker = start("worker", Map.of(), "--owner", OWNER);
    }

    assertBooksBalanced(paymentId);
    if (inApi) {
      // The channel's retry reaches the restarted api and is decided (DUPLICATE after a commit).
      await()
          .atMost(RECOVERED)
          .until(
              () ->
                  dsl.fetchCount(
                          WEBHOOK_INBOX,
                          WEBHOOK_INBOX
                              .PAYMENT_ID
                              .eq(paymentId)
                              .and(WEBHOOK_INBOX.OUTCOME.in("CONFIRMED", "DUPLICATE")))
                      >= 1);
    }
  }

  /**
   * The payment's PaymentCreated is delivered first (so the armed passage is PaymentConfirmed's,
   * the first passage of every point after creation).
   */
  private String createPaymentAndAwaitCreatedSent() throws Exception {
    String body =
        JSON.writeValueAsString(
            Map.of(
                "tenantId",
                "t1",
                "orderId",
                "o-" + UUID.randomUUID(),
                "userId",
                "u-" + UUID.randomUUID().toString().substring(0, 6),
                "amountMinor",
                1050,
                "currency",
                "USD",
                "courseIds",
                COURSES,
                "channel",
                "sandbox"));
    HttpResponse<String> created =
        post(URI.create("http://127.0.0.1:" + apiPort + "/v1/payments"), body);
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    String paymentId = JSON.readTree(created.body()).path("payment").path("paymentId").asText();
    await().atMost(RECOVERED).until(() -> sent(paymentId, "PaymentCreated"));
    return paymentId;
  }

  /** Arms {@code point} at its first passage after PaymentCreated went through. */
  private static Map<String, String> withCrash(CrashPoint point, Map<String, String> more) {
    // PaymentCreated passes the dispatcher and the publish once before PaymentConfirmed does.
    boolean passedAtCreation =
        point.label().startsWith("dispatch.") || point.label().startsWith("publish.");
    Map<String, String> armed = new HashMap<>(more);
    armed.put("PAYRELAY_CRASH_AT", point.label() + (passedAtCreation ? ":2" : ""));
    return armed;
  }

  private void pay(String paymentId, String body) throws Exception {
    HttpResponse<String> paid =
        post(sandbox.baseUrl().resolve("/sandbox/v1/payments/" + paymentId + "/pay"), body);
    assertThat(paid.statusCode()).as(paid.body()).isEqualTo(200);
  }

  /**
   * Nothing lost, nothing twice: PAID once, exactly one PaymentConfirmed, SENT and on the queue
   * (redelivered copies carry the same message id), every course granted exactly once.
   */
  private void assertBooksBalanced(String paymentId) throws Exception {
    await()
        .atMost(RECOVERED)
        .until(() -> sent(paymentId, "PaymentConfirmed") && granted(paymentId) == COURSES.size());
    assertThat(status(paymentId)).isEqualTo("PAID");
    assertThat(Payments.events(dsl, paymentId, "PaymentConfirmed")).isEqualTo(1);
    assertThat(
            dsl.selectDistinct(ENTITLEMENT.COURSE_ID)
                .from(ENTITLEMENT)
                .where(ENTITLEMENT.PURCHASE_ID.eq(paymentId))
                .fetch(ENTITLEMENT.COURSE_ID))
        .containsExactlyInAnyOrderElementsOf(COURSES);
    String confirmedId = eventId(paymentId, "PaymentConfirmed");
    assertThat(drainQueue())
        .extracting(QueuedMessage::id)
        .as("PaymentConfirmed reached the queue")
        .contains(confirmedId);
    // And the operators' checker, over every payment of this class so far, against Temporal too.
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              CliRun check = CliRun.of(env, "check", "--json", "--older-than", "0s");
              assertThat(check.exit()).as(check.out() + check.err()).isZero();
            });
  }

  /** A message taken from the test queue: its message id, AMQP type (the event type) and body. */
  private record QueuedMessage(String id, String type, String body) {}

  /** Drains the test queue; returns the messages it held, redelivered copies included. */
  private static List<QueuedMessage> drainQueue() throws IOException, TimeoutException {
    List<QueuedMessage> messages = new ArrayList<>();
    try (Channel ch = amqp.createChannel()) {
      for (GetResponse r = ch.basicGet(queue, true); r != null; r = ch.basicGet(queue, true)) {
        messages.add(
            new QueuedMessage(
                r.getProps().getMessageId(),
                r.getProps().getType(),
                new String(r.getBody(), StandardCharsets.UTF_8)));
      }
    }
    return messages;
  }

  /** The api kept between tests ({@link #unarmedApi}), started first when it is not running. */
  private ChildPayrelay unarmedApi() throws Exception {
    if (unarmedApi == null || !unarmedApi.isAlive()) {
      unarmedApi = start("api", Map.of());
    }
    return unarmedApi;
  }

  private ChildPayrelay start(String role, Map<String, String> extra, String... args)
      throws Exception {
    if (role.equals("api") && unarmedApi != null) {
      unarmedApi.close();
      unarmedApi = null;
    }
    Map<String, String> childEnv = new HashMap<>(env);
    childEnv.putAll(extra);
    String[] command = new String[args.length + 1];
    command[0] = role;
    System.arraycopy(args, 0, command, 1, args.length);
    Path log = LOGS.resolve(testName).resolve(++lives + "-" + role + ".log");
    Files.deleteIfExists(log);
    ChildPayrelay child = ChildPayrelay.start(childEnv, log, command);
    try {
      child.awaitLog(role.equals("api") ? "api listening on" : "dispatching the outbox", STARTED);
    } catch (RuntimeException | IOException | InterruptedException e) {
      // Not handed to the test, so nothing else would stop it: it would hold the port and its pool.
      child.close();
      throw e;
    }
    return child;
  }

  private static boolean sent(String paymentId, String eventType) {
    return dsl.fetchCount(
            OUTBOX_EVENT,
            OUTBOX_EVENT
                .AGGREGATE_ID
                .eq(paymentId)
                .and(OUTBOX_EVENT.EVENT_TYPE.eq(eventType))
                .and(OUTBOX_EVENT.STATUS.eq("SENT")))
        == 1;
  }

  /** The id of the payment's one {@code eventType} outbox row. */
  private static String eventId(String paymentId, String eventType) {
    return dsl.select(OUTBOX_EVENT.EVENT_ID)
        .from(OUTBOX_EVENT)
        .where(OUTBOX_EVENT.AGGREGATE_ID.eq(paymentId))
        .and(OUTBOX_EVENT.EVENT_TYPE.eq(eventType))
        .fetchSingle(OUTBOX_EVENT.EVENT_ID);
  }

  /** The status of the payment's one {@code eventType} outbox row. */
  private static String outboxStatus(String paymentId, String eventType) {
    return dsl.select(OUTBOX_EVENT.STATUS)
        .from(OUTBOX_EVENT)
        .where(OUTBOX_EVENT.AGGREGATE_ID.eq(paymentId))
        .and(OUTBOX_EVENT.EVENT_TYPE.eq(eventType))
        .fetchSingle(OUTBOX_EVENT.STATUS);
  }

  private static int granted(String paymentId) {
    return dsl.fetchCount(ENTITLEMENT, ENTITLEMENT.PURCHASE_ID.eq(paymentId));
  }

  private static String status(String paymentId) {
    return dsl.select(PAYMENT_ORDER.STATUS)
        .from(PAYMENT_ORDER)
        .where(PAYMENT_ORDER.PAYMENT_ID.eq(paymentId))
        .fetchSingle(PAYMENT_ORDER.STATUS);
  }

  private static String confirmedPayload(String paymentId) {
    return dsl.select(OUTBOX_EVENT.PAYLOAD)
        .from(OUTBOX_EVENT)
        .where(OUTBOX_EVENT.AGGREGATE_ID.eq(paymentId))
        .and(OUTBOX_EVENT.EVENT_TYPE.eq("PaymentConfirmed"))
        .fetchSingle(OUTBOX_EVENT.PAYLOAD);
  }

  private static HttpResponse<String> post(URI uri, String body) throws Exception {
    return http.send(
        HttpRequest.newBuilder(uri)
            .header("Content-Type", "application/json")
            .header("Authorization", "Bearer " + PayrelayHarness.KEY.token())
            .timeout(Duration.ofSeconds(30))
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}

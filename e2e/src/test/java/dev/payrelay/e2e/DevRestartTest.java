package dev.payrelay.e2e;

import static dev.payrelay.ledger.db.generated.Tables.ENTITLEMENT;
import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.temporal.TemporalDevServer;
import dev.payrelay.ledger.testing.TestDatabase;
import dev.payrelay.tools.soak.ChildPayrelay;
import dev.payrelay.workflows.PaymentSearchAttributes;
import dev.payrelay.workflows.PaymentView;
import dev.payrelay.workflows.PaymentWorkflow;
import dev.payrelay.workflows.PaymentWorkflowState;
import dev.payrelay.workflows.WorkflowIds;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code payrelay dev} as a real process that starts its own Temporal dev server (SQLite under a
 * data directory), killed with -9 while a grant is in flight, then started again: the server
 * outlives the process, the payment's workflow is still listed and queryable, and the interrupted
 * grant completes on the new worker. Then the server is stopped too and started again from its
 * SQLite file, and still knows the payment.
 */
class DevRestartTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static TestDatabase db;
  private static Map<String, String> env;
  private static Path dataDir;
  private static String exchange;
  private static int temporalPort;
  private static final HttpClient http = HttpClient.newHttpClient();

  @BeforeAll
  static void setUp() throws Exception {
    db = TestDatabase.create(DevRestartTest.class);
    dataDir = Files.createTempDirectory("payrelay-dev-restart");
    exchange = "payrelay.test.devrestart." + UUID.randomUUID().toString().substring(0, 8);
    temporalPort = PayrelayHarness.freePort();
    env = new HashMap<>();
    env.put("PAYRELAY_DB_URL", db.config().jdbcUrl());
    env.put("PAYRELAY_DB_USER", db.config().user());
    env.put("PAYRELAY_DB_PASSWORD", db.config().password());
    env.put("PAYRELAY_AMQP_EXCHANGE", exchange);
    // Not about the consumer: its queues would outlive this class.
    env.put("PAYRELAY_CONSUMER_NOTIFICATIONS", "false");
    env.put("PAYRELAY_CONSUMER_ENTITLEMENTS", "false");
    env.put("PAYRELAY_AMQP_QUEUES", exchange + ".events=payment.#");
    env.put("PAYRELAY_TEMPORAL_PORT", String.valueOf(temporalPort));
    env.put("PAYRELAY_TEMPORAL_UI_PORT", String.valueOf(PayrelayHarness.freePort()));
    env.put("PAYRELAY_DATA_DIR", dataDir.toString());
    env.put("PAYRELAY_API_PORT", String.valueOf(PayrelayHarness.freePort()));
    env.put("PAYRELAY_SANDBOX_PORT", String.valueOf(PayrelayHarness.freePort()));
    env.put("PAYRELAY_RECONCILIATION_DAILY", "false");
    env.put(
        "PAYRELAY_TEMPORAL_CLI", System.getenv().getOrDefault("PAYRELAY_TEMPORAL_CLI", "temporal"));
  }

  @AfterAll
  static void tearDown() {
    db.close();
  }

  @Test
  void killedMidGrant_restartedDev_reusesTheServer_listsTheWorkflow_andFinishesTheGrant()
      throws Exception {
    Path logs = Path.of("target", "dev-restart");
    PayrelayConfig config = PayrelayConfig.fromEnv(env);
    ChildPayrelay first = ChildPayrelay.start(env, fresh(logs.resolve("1-dev.log")), "dev");
    List<ProcessHandle> temporalServer = List.of();
    try (Connection lock =
            DriverManager.getConnection(
                db.config().jdbcUrl(), db.config().user(), db.config().password());
        Statement s = lock.createStatement()) {
      first.awaitLog("payrelay dev is running", Duration.ofSeconds(120));
      assertThat(Files.exists(dataDir.resolve("temporal.db"))).as("SQLite store").isTrue();
      // The file header's bytes 18 and 19 are 2 in write-ahead-log mode, 1 with a rollback
      // journal (https://www.sqlite.org/fileformat.html#file_format_version_numbers).
      byte[] header = new byte[20];
      try (var in = Files.newInputStream(dataDir.resolve("temporal.db"))) {
        assertThat(in.readNBytes(header, 0, 20)).isEqualTo(20);
      }
      assertThat(new byte[] {header[18], header[19]}).as("WAL mode").containsExactly(2, 2);
      temporalServer = first.descendants();
      assertThat(temporalServer).as("the dev server is dev's child").isNotEmpty();

      // Hold the entitlement table so the grant activity blocks inside its transaction.
      s.execute("LOCK TABLES entitlement WRITE");
      String paymentId = createAndPay(config);
      DSLContext dsl = db.database().dsl();
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  dsl.fetchCount(
                          OUTBOX_EVENT,
                          OUTBOX_EVENT
                              .AGGREGATE_ID
                              .eq(paymentId)
                              .and(OUTBOX_EVENT.EVENT_TYPE.eq("PaymentConfirmed"))
                              .and(OUTBOX_EVENT.STATUS.eq("SENT")))
                      == 1);
      Thread.sleep(500); // the grant activity is now waiting on the lock
      assertThat(first.kill9()).as("killed by SIGKILL").isEqualTo(137);
      s.execute("UNLOCK TABLES");
      assertThat(temporalServer).allMatch(ProcessHandle::isAlive);
      assertThat(dsl.fetchCount(ENTITLEMENT, ENTITLEMENT.PURCHASE_ID.eq(paymentId))).isZero();

      try (ChildPayrelay second =
          ChildPayrelay.start(env, fresh(logs.resolve("2-dev.log")), "dev")) {
        second.awaitLog("payrelay dev is running", Duration.ofSeconds(120));
        second.awaitLog("a Temporal server already listens", Duration.ofSeconds(1));
        // The grant's 30 s start-to-close timeout runs out, and the new worker retries it.
        await()
            .atMost(Duration.ofSeconds(90))
            .until(() -> dsl.fetchCount(ENTITLEMENT, ENTITLEMENT.PURCHASE_ID.eq(paymentId)) == 2);
        assertThat(
                dsl.select(PAYMENT_ORDER.STATUS)
                    .from(PAYMENT_ORDER)
                    .where(PAYMENT_ORDER.PAYMENT_ID.eq(paymentId))
                    .fetchOne(PAYMENT_ORDER.STATUS))
            .isEqualTo("PAID");
        assertListedAndQueryable(paymentId);
      }
      // The server itself stopped and started again from its SQLite file: nothing forgotten.
      temporalServer.forEach(ProcessHandle::destroy);
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> !TemporalDevServer.listening(temporalPort));
      try (ChildPayrelay third =
          ChildPayrelay.start(env, fresh(logs.resolve("3-dev.log")), "dev")) {
        third.awaitLog("payrelay dev is running", Duration.ofSeconds(120));
        temporalServer = third.descendants();
        assertListedAndQueryable(paymentId);
      }
    } finally {
      temporalServer.forEach(ProcessHandle::destroy);
    }
  }

  private void assertListedAndQueryable(String paymentId) {
    WorkflowServiceStubs stubs =
        WorkflowServiceStubs.newServiceStubs(
            WorkflowServiceStubsOptions.newBuilder()
                .setTarget("127.0.0.1:" + temporalPort)
                .build());
    try {
      WorkflowClient client =
          WorkflowClient.newInstance(stubs, WorkflowClientOptions.newBuilder().build());
      String id = WorkflowIds.payment(paymentId);
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  client
                      .listExecutions(
                          PaymentSearchAttributes.PAYMENT_STATE.getName()
                              + "=\"FULFILLED\" AND "
                              + PaymentSearchAttributes.PAYMENT_ID.getName()
                              + "=\""
                              + paymentId
                              + "\"")
                      .anyMatch(e -> e.getExecution().getWorkflowId().equals(id)));
      PaymentView view = client.newWorkflowStub(PaymentWorkflow.class, id).state();
      assertThat(view.state()).isEqualTo(PaymentWorkflowState.FULFILLED);
      assertThat(view.grantedCourseIds()).containsExactlyInAnyOrder("course-a", "course-b");
    } finally {
      stubs.shutdown();
    }
  }

  private static Path fresh(Path log) throws java.io.IOException {
    Files.deleteIfExists(log);
    return log;
  }

  private static String createAndPay(PayrelayConfig config) throws Exception {
    String body =
        JSON.writeValueAsString(
            Map.of(
                "tenantId", "t1",
                "orderId", "o-" + UUID.randomUUID(),
                "userId", "u-restart",
                "amountMinor", 990,
                "currency", "USD",
                "courseIds", List.of("course-a", "course-b"),
                "channel", "sandbox"));
    HttpResponse<String> created =
        post(URI.create("http://127.0.0.1:" + config.api().port() + "/v1/payments"), body);
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    String paymentId = JSON.readTree(created.body()).path("payment").path("paymentId").asText();
    HttpResponse<String> paid =
        post(config.sandbox().url().resolve("/sandbox/v1/payments/" + paymentId + "/pay"), "{}");
    assertThat(paid.statusCode()).as(paid.body()).isEqualTo(200);
    return paymentId;
  }

  private static HttpResponse<String> post(URI uri, String body) throws Exception {
    return http.send(
        HttpRequest.newBuilder(uri)
            .header("Content-Type", "application/json")
            .header(
                "Authorization",
                "Bearer "
                    + java.nio.file.Files.readString(
                            dataDir.resolve(PayrelayConfig.AccessSettings.DEV_KEY_FILE))
                        .strip())
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}

package dev.payrelay.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import dev.payrelay.amqp.QueueBinding;
import dev.payrelay.api.auth.ApiKey;
import dev.payrelay.api.auth.ApiKeys;
import dev.payrelay.api.auth.Role;
import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.channels.sandbox.SandboxNotification;
import dev.payrelay.channels.sandbox.SandboxSignature;
import dev.payrelay.devstack.DevStack;
import dev.payrelay.ledger.db.generated.Tables;
import dev.payrelay.ledger.testing.TestDatabase;
import dev.payrelay.workflows.PaymentSearchAttributes;
import dev.payrelay.workflows.ReconciliationWorkflow;
import dev.payrelay.workflows.TaskQueues;
import dev.payrelay.workflows.WorkflowIds;
import io.temporal.client.WorkflowOptions;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeoutException;

/**
 * A whole payrelay (DevStack: API, worker, dispatcher, sandbox) on a fresh database, its own
 * exchange and queue names and its own namespace on the real Temporal dev server ({@link
 * RealTemporal}), for one test class.
 */
final class PayrelayHarness implements AutoCloseable {

  static final String SECRET = "e2e-secret";

  /**
   * The API key the harness's requests and CLI runs carry: admin for every tenant, operator {@code
   * alice}.
   */
  static final ApiKeys.Issued KEY =
      ApiKeys.issue(Role.ADMIN, "alice", java.util.Set.of(ApiKey.ALL_TENANTS));

  private static final ObjectMapper JSON = new ObjectMapper();

  final TestDatabase db;
  final Map<String, String> env;
  final PayrelayConfig config;
  final String queue;
  final DevStack stack;
  final HttpClient http = HttpClient.newHttpClient();
  private final Connection amqp;

  PayrelayHarness(Class<?> owner) throws Exception {
    this(owner, Map.of());
  }

  /** A stack whose environment adds or overrides {@code extraEnv}. */
  PayrelayHarness(Class<?> owner, Map<String, String> extraEnv) throws Exception {
    db = TestDatabase.create(owner);
    String suffix =
        owner.getSimpleName().toLowerCase() + "." + UUID.randomUUID().toString().substring(0, 8);
    String exchange = "payrelay.test." + suffix;
    queue = exchange + ".events";
    int apiPort = freePort();
    int sandboxPort = freePort();
    Map<String, String> env = new HashMap<>();
    env.put("PAYRELAY_DB_URL", db.config().jdbcUrl());
    env.put("PAYRELAY_DB_USER", db.config().user());
    env.put("PAYRELAY_DB_PASSWORD", db.config().password());
    env.put("PAYRELAY_AMQP_EXCHANGE", exchange);
    env.put("PAYRELAY_AMQP_QUEUES", queue + "=payment.#");
    env.putAll(RealTemporal.env(owner));
    env.put("PAYRELAY_API_PORT", String.valueOf(apiPort));
    env.put("PAYRELAY_SANDBOX_PORT", String.valueOf(sandboxPort));
    env.put("PAYRELAY_SANDBOX_SECRET", SECRET);
    env.put("PAYRELAY_API_KEYS", KEY.line());
    env.put("PAYRELAY_API_KEY", KEY.token());
    // The consumers run only where a test asks for one (notifications binds payment.confirmed,
    // which tests of unroutable publishes unbind; entitlements payment.refunded), with queues of
    // this class's own.
    env.put("PAYRELAY_CONSUMER_NOTIFICATIONS", "false");
    env.put("PAYRELAY_CONSUMER_ENTITLEMENTS", "false");
    env.put("PAYRELAY_CONSUMER_QUEUE_PREFIX", exchange);
    // Stripe, Alipay and WeChat Pay (their simulators, keys and daily reconciliations) only where a
    // test asks.
    env.put("PAYRELAY_STRIPE_ENABLED", "false");
    env.put("PAYRELAY_ALIPAY_ENABLED", "false");
    env.put("PAYRELAY_WECHATPAY_ENABLED", "false");
    env.putAll(extraEnv);
    this.env = Map.copyOf(env);
    config = PayrelayConfig.fromEnv(env);
    stack = DevStack.start(config, new PrintStream(OutputStream.nullOutputStream()));
    ConnectionFactory factory = new ConnectionFactory();
    factory.setUri(config.amqp().uri());
    amqp = factory.newConnection("payrelay-test-reader");
  }

  URI api(String path) {
    return URI.create("http://127.0.0.1:" + config.api().port() + path);
  }

  URI sandbox(String path) {
    return config.sandbox().url().resolve(path);
  }

  /** Creates a sandbox payment of tenant t1; returns its id. */
  String createPayment(long amountMinor, String currency, String... courses) throws Exception {
    return createPayment("t1", amountMinor, currency, courses);
  }

  /** Creates a sandbox payment of {@code tenantId}; returns its id. */
  String createPayment(String tenantId, long amountMinor, String currency, String... courses)
      throws Exception {
    return createPaymentAt(
            "sandbox", tenantId, "o-" + UUID.randomUUID(), amountMinor, currency, courses)
        .path("payment")
        .path("paymentId")
        .asText();
  }

  /**
   * Creates a payment of {@code tenantId} for {@code orderId} at {@code channel} through {@code
   * POST /v1/payments}.
   *
   * @return the 201 answer's JSON ({@code payment}, {@code payUrl}, ...)
   * @throws IllegalStateException for any other answer
   */
  JsonNode createPaymentAt(
      String channel,
      String tenantId,
      String orderId,
      long amountMinor,
      String currency,
      String... courses)
      throws Exception {
    String body =
        JSON.writeValueAsString(
            Map.of(
                "tenantId",
                tenantId,
                "orderId",
                orderId,
                "userId",
                "u-" + UUID.randomUUID().toString().substring(0, 6),
                "amountMinor",
                amountMinor,
                "currency",
                currency,
                "courseIds",
                List.of(courses),
                "channel",
                channel));
    HttpResponse<String> r =
        post(
            api("/v1/payments"),
            body.getBytes(java.nio.charset.StandardCharsets.UTF_8),
            Map.of("Content-Type", "application/json"));
    if (r.statusCode() != 201) {
      throw new IllegalStateException("create answered " + r.statusCode() + ": " + r.body());
    }
    return JSON.readTree(r.body());
  }

  /** {@code payment_order.status} of the payment. */
  String status(String paymentId) {
    return stack
        .services()
        .database()
        .dsl()
        .select(Tables.PAYMENT_ORDER.STATUS)
        .from(Tables.PAYMENT_ORDER)
        .where(Tables.PAYMENT_ORDER.PAYMENT_ID.eq(paymentId))
        .fetchSingle()
        .value1();
  }

  /** How many outbox events of {@code eventType} about the payment are SENT. */
  int sent(String paymentId, String eventType) {
    return stack
        .services()
        .database()
        .dsl()
        .fetchCount(
            Tables.OUTBOX_EVENT,
            Tables.OUTBOX_EVENT
                .AGGREGATE_ID
                .eq(paymentId)
                .and(Tables.OUTBOX_EVENT.EVENT_TYPE.eq(eventType))
                .and(Tables.OUTBOX_EVENT.STATUS.eq("SENT")));
  }

  /** How many entitlements the payment granted. */
  int granted(String paymentId) {
    return stack
        .services()
        .database()
        .dsl()
        .fetchCount(Tables.ENTITLEMENT, Tables.ENTITLEMENT.PURCHASE_ID.eq(paymentId));
  }

  /** The {@code webhook_inbox} row a webhook answer names ({@code inboxId} in the JSON errors). */
  org.jooq.Record inboxRow(long inboxId) {
    return stack
        .services()
        .database()
        .dsl()
        .fetchSingle(Tables.WEBHOOK_INBOX, Tables.WEBHOOK_INBOX.ID.eq(inboxId));
  }

  /** The configuration the stack runs with: the simulated channels pointed at their simulators. */
  PayrelayConfig wiredConfig() {
    return stack.simulators().config();
  }

  /** The payment workflow's PaymentState search attribute, as Temporal visibility holds it now. */
  String paymentState(String paymentId) {
    return stack
        .temporal()
        .client()
        .newUntypedWorkflowStub(WorkflowIds.payment(paymentId))
        .describe()
        .getTypedSearchAttributes()
        .get(PaymentSearchAttributes.PAYMENT_STATE);
  }

  /** Has the sandbox pay a payment, with an optional JSON body of overrides ("{}" for none). */
  HttpResponse<String> payAtSandbox(String paymentId, String body)
      throws IOException, InterruptedException {
    return post(
        sandbox("/sandbox/v1/payments/" + paymentId + "/pay"),
        body.getBytes(java.nio.charset.StandardCharsets.UTF_8),
        Map.of("Content-Type", "application/json"));
  }

  /** JSON POST to the API at {@code path}. */
  HttpResponse<String> postJson(String path, String body) throws IOException, InterruptedException {
    return post(
        api(path),
        body.getBytes(java.nio.charset.StandardCharsets.UTF_8),
        Map.of("Content-Type", "application/json"));
  }

  /** The signed callback the sandbox would send: raw bytes and headers. */
  SignedCallback signedCallback(SandboxNotification n) {
    byte[] raw = n.toJson();
    Map<String, String> headers =
        new HashMap<>(
            new SandboxSignature(SECRET, Duration.ofMinutes(5), Clock.systemUTC()).headersFor(raw));
    headers.put("Content-Type", "application/json");
    return new SignedCallback(raw, headers);
  }

  record SignedCallback(byte[] raw, Map<String, String> headers) {}

  /**
   * Posts the signed PAID callback the sandbox would send for {@code paymentId} paid by {@code txn}
   * (amount as the channel writes it, e.g. "10.50"), whether or not the sandbox saw that payment.
   */
  HttpResponse<String> postPaidCallback(
      String paymentId, String txn, String amount, String currency)
      throws IOException, InterruptedException {
    SignedCallback cb =
        signedCallback(
            new SandboxNotification(
                "ntf_" + txn,
                config.sandbox().merchantId(),
                paymentId,
                txn,
                amount,
                currency,
                "PAID",
                Instant.now()));
    return postWebhook(cb.raw(), cb.headers());
  }

  HttpResponse<String> postWebhook(byte[] raw, Map<String, String> headers)
      throws IOException, InterruptedException {
    return post(api("/v1/webhooks/sandbox"), raw, headers);
  }

  /** POSTs {@code raw} to {@code channel}'s webhook URL, without an API key (as channels do). */
  HttpResponse<String> postWebhook(String channel, byte[] raw, Map<String, String> headers)
      throws IOException, InterruptedException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(api("/v1/webhooks/" + channel))
            .POST(HttpRequest.BodyPublishers.ofByteArray(raw));
    headers.forEach(b::header);
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  HttpResponse<String> post(URI uri, byte[] body, Map<String, String> headers)
      throws IOException, InterruptedException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(uri).POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (!headers.containsKey("Authorization")) {
      b.header("Authorization", "Bearer " + KEY.token());
    }
    headers.forEach(b::header);
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** GET of a payment's trail (by id) or of any API path starting with "/", as JSON. */
  JsonNode trail(String paymentIdOrPath) throws Exception {
    String path =
        paymentIdOrPath.startsWith("/") ? paymentIdOrPath : "/v1/payments/" + paymentIdOrPath;
    return JSON.readTree(
        http.send(
                HttpRequest.newBuilder(api(path))
                    .header("Authorization", "Bearer " + KEY.token())
                    .build(),
                HttpResponse.BodyHandlers.ofString())
            .body());
  }

  Channel amqpChannel() throws IOException {
    return amqp.createChannel();
  }

  /**
   * Binds ({@code true}) or unbinds the harness's queues: while unbound, every event published to
   * the exchange is returned (mandatory) and its publish fails UNROUTABLE.
   */
  void routeEvents(boolean bound) throws IOException, TimeoutException {
    String exchange = config.amqp().exchange();
    try (Channel ch = amqp.createChannel()) {
      for (QueueBinding b : config.amqp().queues()) {
        if (bound) {
          ch.queueBind(b.queue(), exchange, b.routingKeyPattern());
        } else {
          ch.queueUnbind(b.queue(), exchange, b.routingKeyPattern());
        }
      }
    }
  }

  /** A stub for the sandbox channel's {@code recon-sandbox-{day}} on the reconciliation queue. */
  ReconciliationWorkflow reconciliationStub(LocalDate day) {
    return stack
        .temporal()
        .client()
        .newWorkflowStub(
            ReconciliationWorkflow.class,
            WorkflowOptions.newBuilder()
                .setWorkflowId(WorkflowIds.reconciliation("sandbox", day))
                .setTaskQueue(TaskQueues.RECONCILIATION)
                .build());
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  @Override
  public void close() throws Exception {
    stack.close();
    try (Channel ch = amqp.createChannel()) {
      ch.queueDelete(queue);
      for (String q : config.consumers().queues()) {
        ch.queueDelete(q);
      }
      ch.exchangeDelete(config.amqp().exchange());
    }
    amqp.close();
    db.close();
  }
}

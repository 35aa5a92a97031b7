package dev.payrelay.api;

import dev.payrelay.api.admin.AdminService;
import dev.payrelay.api.admin.PaymentSignals;
import dev.payrelay.api.admin.QuarantineAdmin;
import dev.payrelay.api.admin.ReconciliationAdmin;
import dev.payrelay.api.admin.RefundFix;
import dev.payrelay.api.admin.RefundFixes;
import dev.payrelay.api.admin.RefundSignals;
import dev.payrelay.api.admin.SignalTokenIssuer;
import dev.payrelay.api.auth.ApiKey;
import dev.payrelay.api.auth.ApiKeys;
import dev.payrelay.api.auth.Role;
import dev.payrelay.api.health.Readiness;
import dev.payrelay.api.http.ApiHandlers;
import dev.payrelay.api.http.ApiServer;
import dev.payrelay.api.http.CodecEndpoint;
import dev.payrelay.api.http.HttpLimits;
import dev.payrelay.api.payment.PaymentQueries;
import dev.payrelay.api.payment.PaymentService;
import dev.payrelay.api.refund.RefundService;
import dev.payrelay.api.webhook.WebhookService;
import dev.payrelay.channels.sandbox.SandboxChannel;
import dev.payrelay.channels.sandbox.SandboxChannelConfig;
import dev.payrelay.channels.sandbox.SandboxSignature;
import dev.payrelay.domain.channel.ChannelAccount;
import dev.payrelay.domain.channel.ChannelRegistry;
import dev.payrelay.domain.crash.CrashPoints;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.domain.operator.SignalTokens;
import dev.payrelay.ledger.inbox.WebhookInboxStore;
import dev.payrelay.ledger.operator.PaymentResolutions;
import dev.payrelay.ledger.outbox.DeadEvents;
import dev.payrelay.ledger.outbox.OutboxStore;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.payment.EntitlementStore;
import dev.payrelay.ledger.payment.PaymentAudit;
import dev.payrelay.ledger.payment.PaymentLedger;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.ledger.reconciliation.Reconciliation;
import dev.payrelay.ledger.refund.RefundAudit;
import dev.payrelay.ledger.refund.RefundOutcomes;
import dev.payrelay.ledger.refund.RefundRequests;
import dev.payrelay.ledger.refund.RefundResolutions;
import dev.payrelay.ledger.refund.RefundRow;
import dev.payrelay.ledger.refund.RefundStore;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.ledger.testing.TestDatabase;
import dev.payrelay.temporal.client.WorkflowInspection;
import dev.payrelay.workflows.EventOperatorSignal;
import dev.payrelay.workflows.OperatorSignal;
import dev.payrelay.workflows.RefundSignal;
import dev.payrelay.workflows.ResolveSignal;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jooq.DSLContext;

/**
 * payrelay's API over a fresh database on the local MariaDB, with the sandbox channel at a closed
 * port (or at a simulator's address, so payments can be created) and signals recorded instead of
 * sent to Temporal. Its requests carry {@link #admin}'s key unless they name another.
 */
final class TestApi implements AutoCloseable {

  static final String SECRET = "api-input-secret";
  static final String MERCHANT = Payments.MERCHANT;

  /** The signal tokens the admin API signs with in these tests. */
  static final SignalTokens TOKENS =
      new SignalTokens(
          "api-test-signal-secret-0123456789abcdef".getBytes(StandardCharsets.UTF_8),
          Duration.ofMinutes(15),
          Clock.systemUTC());

  /** The largest callback body the API accepts here, in bytes. */
  static final int WEBHOOK_BODY_LIMIT = 4096;

  final TestDatabase db;
  final DSLContext dsl;
  final PaymentStore payments;
  final OutboxStore outbox;
  final RecordingSignals signals = new RecordingSignals();
  final RecordingRefundSignals refundSignals = new RecordingRefundSignals();

  /**
   * How long a refund fix waits for a verdict here: no workflow answers the recorded signals, so
   * the API tests see PENDING after it (the workflow's verdict is e2e's RefundFixesEndToEndTest).
   */
  static final Duration VERDICT_WAIT = Duration.ofMillis(500);

  final ApiServer server;
  final ChannelRegistry channels;

  /** A Temporal frontend at a closed port: trails show their workflow as unreachable. */
  final WorkflowServiceStubs temporal =
      WorkflowServiceStubs.newServiceStubs(
          WorkflowServiceStubsOptions.newBuilder().setTarget(UNREACHABLE_TEMPORAL).build());

  /** Where {@link #temporal} points: the discard port, which nothing here listens on. */
  static final String UNREACHABLE_TEMPORAL = "127.0.0.1:9";

  /** An admin key of operator {@code bob} for every tenant. */
  final ApiKeys.Issued admin = ApiKeys.issue(Role.ADMIN, "bob", Set.of(ApiKey.ALL_TENANTS));

  private final HttpClient http = HttpClient.newHttpClient();

  /**
   * Starts the API on free ports.
   *
   * @param separateAdmin whether the admin endpoints get their own listener
   * @param more keys accepted besides {@link #admin}
   */
  TestApi(Class<?> owner, boolean separateAdmin, ApiKeys.Issued... more) {
    this(owner, separateAdmin, HttpLimits.DEFAULTS, more);
  }

  /**
   * Starts the API on free ports with {@code limits} on its listeners.
   *
   * @param separateAdmin whether the admin endpoints get their own listener
   * @param more keys accepted besides {@link #admin}
   */
  TestApi(Class<?> owner, boolean separateAdmin, HttpLimits limits, ApiKeys.Issued... more) {
    this(owner, separateAdmin, limits, URI.create("http://127.0.0.1:9"), null, more);
  }

  /**
   * Starts the API on free ports with a separate admin listener, its sandbox channel at {@code
   * sandboxBase} (a {@code SandboxSimulator}, so payments can be created) and the consumers'
   * quarantine queues behind {@code quarantine}.
   *
   * @param more keys accepted besides {@link #admin}
   */
  TestApi(Class<?> owner, URI sandboxBase, QuarantineAdmin quarantine, ApiKeys.Issued... more) {
    this(owner, true, HttpLimits.DEFAULTS, sandboxBase, quarantine, more);
  }

  private TestApi(
      Class<?> owner,
      boolean separateAdmin,
      HttpLimits limits,
      URI sandboxBase,
      QuarantineAdmin quarantine,
      ApiKeys.Issued... more) {
    db = TestDatabase.create(owner);
    dsl = db.database().dsl();
    OutboxWriter writer = new OutboxWriter(new EventJson());
    payments = new PaymentStore(dsl, writer);
    outbox = new OutboxStore(dsl);
    SandboxChannel sandbox =
        new SandboxChannel(
            new SandboxChannelConfig(
                sandboxBase,
                MERCHANT,
                SECRET,
                URI.create("http://127.0.0.1:9/v1/webhooks/sandbox"),
                Duration.ofMinutes(5),
                Duration.ofSeconds(1)),
            Clock.systemUTC(),
            HttpClient.newHttpClient());
    channels = ChannelRegistry.of(List.of(ChannelAccount.defaultAccount(MERCHANT, sandbox)));
    PrometheusMeterRegistry metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    ApiKeys keys = ApiKeys.of(List.of(admin.key()));
    for (ApiKeys.Issued k : more) {
      keys = keys.and(ApiKeys.of(List.of(k.key())));
    }
    WorkflowInspection inspection =
        new WorkflowInspection(
            WorkflowClient.newInstance(
                temporal, WorkflowClientOptions.newBuilder().setNamespace("default").build()),
            null);
    ApiServer api =
        new ApiServer(
            new ApiHandlers(
                new PaymentService(payments, channels, Duration.ofMinutes(30), () -> {}),
                new PaymentQueries(
                    payments,
                    outbox,
                    new EntitlementStore(dsl, payments),
                    new PaymentAudit(dsl),
                    inspection),
                new WebhookService(
                    new WebhookInboxStore(dsl),
                    new PaymentLedger(dsl, payments, writer),
                    channels,
                    metrics,
                    Clock.systemUTC(),
                    () -> {},
                    CrashPoints.none()),
                new AdminService(
                    new PaymentResolutions(dsl, payments, writer),
                    new DeadEvents(dsl),
                    payments,
                    outbox,
                    signals,
                    new SignalTokenIssuer(TOKENS, payments, outbox)),
                new ReconciliationAdmin(new Reconciliation(dsl, payments, writer), channels, null),
                null, // listing by state: AdminPaymentsApiTest
                metrics,
                Readiness.start(
                    Duration.ofSeconds(10),
                    java.util.Map.of("database", () -> dsl.selectOne().fetch()),
                    metrics,
                    Throwable::toString),
                WEBHOOK_BODY_LIMIT,
                keys,
                new CodecEndpoint(null, CodecEndpoint.LOCAL_UI_ORIGINS, CodecEndpoint.Access.OPEN),
                quarantine, // null leaves them out; worker's QuarantineEndToEndTest has them
                new RefundService(
                    new RefundRequests(dsl, writer),
                    new RefundStore(dsl),
                    payments,
                    () -> {},
                    inspection,
                    CrashPoints.none()),
                new RefundFixes(
                    new RefundStore(dsl),
                    payments,
                    new RefundResolutions(dsl, new RefundOutcomes(dsl, writer)),
                    new RefundAudit(dsl),
                    refundSignals,
                    new SignalTokenIssuer(TOKENS, payments, outbox),
                    VERDICT_WAIT)),
            separateAdmin,
            limits);
    server = separateAdmin ? api.start("127.0.0.1", 0, "127.0.0.1", 0) : api.start("127.0.0.1", 0);
  }

  /** A request to the public listener (or the admin one) carrying {@code token} when not null. */
  HttpResponse<String> send(
      String method, boolean adminListener, String path, String body, String token)
      throws Exception {
    Map<String, String> headers = new HashMap<>(Map.of("Content-Type", "application/json"));
    if (token != null) {
      headers.put("Authorization", "Bearer " + token);
    }
    return request(
        method,
        adminListener,
        path,
        body == null ? null : body.getBytes(StandardCharsets.UTF_8),
        headers);
  }

  /** A request to the public listener (or the admin one) with exactly {@code headers}. */
  HttpResponse<String> request(
      String method, boolean adminListener, String path, byte[] body, Map<String, String> headers)
      throws Exception {
    int port = adminListener ? server.adminPort() : server.port();
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(body));
    headers.forEach(b::header);
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  /**
   * The headers of a sandbox callback of {@code body} signed now with {@link #SECRET} ({@link
   * SandboxSignature}), with its {@code Content-Type}.
   */
  static Map<String, String> signedCallback(byte[] body) {
    Map<String, String> headers =
        new HashMap<>(
            new SandboxSignature(SECRET, Duration.ofMinutes(5), Clock.systemUTC())
                .headersFor(body));
    headers.put("Content-Type", "application/json");
    return headers;
  }

  @Override
  public void close() {
    server.close();
    temporal.shutdownNow();
    db.close();
  }

  /** Refund signals recorded as they were sent (tokens included). */
  static final class RecordingRefundSignals implements RefundSignals {
    /** {@code "<signal> <refundId> <operator>"} per signal sent. */
    final List<String> sent = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** Every signal's argument, in order. */
    final List<RefundSignal> signals = new java.util.concurrent.CopyOnWriteArrayList<>();

    @Override
    public void send(RefundRow refund, PaymentRow payment, RefundFix fix, RefundSignal signal) {
      signals.add(signal);
      sent.add(fix.signal() + " " + refund.refundId() + " " + signal.operator());
    }
  }

  /** Signals recorded as {@code "<signal> <paymentId> <action or eventId> <operator>"}. */
  static final class RecordingSignals implements PaymentSignals {
    final List<String> sent = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** Every signal sent, as it was sent (tokens included). */
    final List<Object> signals = new java.util.concurrent.CopyOnWriteArrayList<>();

    @Override
    public void resolve(PaymentRow payment, ResolveSignal signal) {
      signals.add(signal);
      sent.add("resolve " + payment.paymentId() + " " + signal.action() + " " + signal.operator());
    }

    @Override
    public void replayEvent(PaymentRow payment, EventOperatorSignal signal) {
      signals.add(signal);
      sent.add(
          "replayEvent " + payment.paymentId() + " " + signal.eventId() + " " + signal.operator());
    }

    @Override
    public void discardEvent(PaymentRow payment, EventOperatorSignal signal) {
      sent.add(
          "discardEvent " + payment.paymentId() + " " + signal.eventId() + " " + signal.operator());
    }

    @Override
    public void requery(PaymentRow payment, OperatorSignal signal) {
      signals.add(signal);
      sent.add("requery " + payment.paymentId() + " " + signal.operator());
    }

    @Override
    public void extendDeadline(PaymentRow payment, OperatorSignal signal) {
      signals.add(signal);
      sent.add(
          "extendDeadline " + payment.paymentId() + " " + signal.until() + " " + signal.operator());
    }
  }
}

package dev.payrelay.simulators.sandbox;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payrelay.channels.sandbox.SandboxJson;
import dev.payrelay.channels.sandbox.SandboxNotification;
import dev.payrelay.channels.sandbox.SandboxSignature;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.StatementLine;
import dev.payrelay.simulators.RefundMode;
import io.javalin.Javalin;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * A small HTTP server playing the sandbox payment channel, for development, demos and tests.
 *
 * <p>Endpoints (JSON unless noted; errors are {@code {"error":"..."}}):
 *
 * <ul>
 *   <li>{@code POST /sandbox/v1/payments} {@code {payment_id, merchant_id, amount, currency,
 *       description, expires_at, notify_url}} → 201 (new) or 200 (same again) {@code {payment_id,
 *       pay_url, status}}; 409 another amount/currency for the id; 400 wrong merchant or bad field.
 *   <li>{@code GET /sandbox/v1/payments/{id}} → 200 {@code {payment_id, merchant_id, status,
 *       channel_txn_id, amount, currency}} or 404. A PENDING payment past expires_at reads CLOSED.
 *   <li>{@code POST /sandbox/v1/payments/{id}/pay}, optional body {@code {"amount","currency"}} to
 *       report a different amount → 200 {@code {payment_id, channel_txn_id, notification_id,
 *       callback_status}} (status of the first delivery attempt, null if none); paying a PAID
 *       payment re-sends the same notification; 409 if closed or expired; 404 unknown.
 *   <li>{@code POST /sandbox/v1/payments/{id}/close} → 200 with the same shape as GET: status
 *       CLOSED (idempotent), or PAID with its channel_txn_id if it was paid first; 404 unknown.
 *   <li>{@code GET /sandbox/v1/statements/{yyyy-MM-dd}?page_token=&page_size=} → 200 JSON lines
 *       ({@code application/x-ndjson}), next page token in header {@code X-Next-Page-Token}; see
 *       {@link SimulatorStatementApi} for the line shape.
 *   <li>{@code POST /sandbox/v1/payments/{id}/refunds} {@code {refund_no, amount, currency,
 *       reason}} → 201 (new) or 200 (same number again) {@code {refund_id, refund_no, payment_id,
 *       channel_txn_id, amount, currency, status, failure_reason, created_at}}, status SUCCEEDED or
 *       FAILED; 422 the payment is not PAID or the amount exceeds what is left; 409 the number
 *       already names another amount; 404 unknown payment. A new refund is reported to the
 *       payment's notify_url as a signed {@code SandboxRefundNotification}.
 *   <li>{@code GET /sandbox/v1/payments/{id}/refunds/{refundNo}} → 200 the refund, or 404.
 *   <li>{@code GET /sandbox/pay/{id}} → the buyer's HTML page with a Pay button.
 *   <li>{@code POST /sandbox/v1/admin/mode} → sets a {@link SandboxMode} globally or per payment
 *       (body on {@link SimulatorAdminApi}): callbacks dropped or delayed, queries slowed or
 *       answering 503. The pay answer also carries {@code callback_mode}.
 *   <li>{@code POST /sandbox/v1/admin/refund-mode} → sets a {@link RefundMode} globally or per
 *       payment (body on {@link SimulatorRefundApi#setMode}): refund answers late, callbacks
 *       dropped, delayed or sent twice, refunds failed, answers PENDING, queries answering 404 for
 *       a refund made, submits lost before the channel.
 *   <li>{@code GET /sandbox/v1/admin/refunds/{refundNo}/calls} → 200 {@code {refund_no, submits,
 *       queries}}: the calls received with that refund number.
 *   <li>{@code POST /sandbox/v1/admin/payments/{id}/dashboard-refund} {@code {amount, currency}} →
 *       201, a refund made in the dashboard (no refund_no), reported like any other.
 * </ul>
 *
 * <p>Register, query, close and statement calls may carry an {@code Idempotency-Key} header; the
 * simulator records them ({@link #idempotencyKeys}) and answers a repeated register or close with
 * the same key and body by replaying the first answer (header {@code Idempotent-Replayed: true}).
 *
 * <p>The simulator keeps several merchant accounts ({@link
 * SandboxSimulatorConfig#merchantSecrets()}), accepts registrations for each, and signs each
 * payment's callbacks with its own merchant's secret. Callbacks are {@link SandboxNotification}s
 * signed by {@link SandboxSignature} and retried per {@link
 * SandboxSimulatorConfig#callbackRetryDelays()}. State lives in memory only.
 */
public final class SandboxSimulator implements AutoCloseable {

  private final SandboxSimulatorConfig config;
  private final SimulatedPayments payments;
  private final ScheduledExecutorService retries;
  private final SimulatedStatement statement;
  private final SimulatedRefunds refunds;
  private final RefundModes refundModes = new RefundModes();
  private final SimulatorRefundApi refundApi;
  private final IdempotencyLog keys = new IdempotencyLog();
  private final SimulatorModes modes = new SimulatorModes();
  private final SimulatorRoutes routes;
  private Javalin server;

  /**
   * @param config bind address, merchant, secret and callback retry policy
   * @param clock the time source for expiry, paid_at and callback timestamps
   * @param httpClient the client callbacks are delivered with
   */
  public SandboxSimulator(SandboxSimulatorConfig config, Clock clock, HttpClient httpClient) {
    this.config = config;
    this.payments = new SimulatedPayments(clock);
    this.retries =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("sandbox-callback-retry").daemon().factory());
    Map<String, SandboxSignature> signers = new HashMap<>();
    config
        .merchantSecrets()
        .forEach(
            (merchant, secret) ->
                signers.put(
                    merchant,
                    new SandboxSignature(secret, SandboxSignature.DEFAULT_TOLERANCE, clock)));
    CallbackDeliverer deliverer =
        new CallbackDeliverer(
            httpClient, signers, retries, config.callbackRetryDelays(), config.callbackTimeout());
    this.refunds = new SimulatedRefunds(payments, clock);
    this.statement = new SimulatedStatement(payments, refunds);
    SandboxJson json = new SandboxJson(new ObjectMapper());
    this.refundApi =
        new SimulatorRefundApi(
            payments, refunds, new RefundReporter(payments, deliverer), refundModes, json, keys);
    this.routes =
        new SimulatorRoutes(
            payments,
            refundApi,
            statement,
            deliverer,
            keys,
            modes,
            config.merchantSecrets().keySet(),
            this::baseUrl);
  }

  /**
   * Binds {@code host:port} and starts serving.
   *
   * @return the bound port (the ephemeral one when configured with 0)
   * @throws IllegalStateException if already started
   */
  public synchronized int start() {
    if (server != null) {
      throw new IllegalStateException("sandbox simulator already started");
    }
    Javalin app = Javalin.create(cfg -> cfg.showJavalinBanner = false);
    routes.install(app);
    server = app.start(config.host(), config.port());
    return server.port();
  }

  /**
   * The bound port.
   *
   * @throws IllegalStateException if not started
   */
  public synchronized int port() {
    if (server == null) {
      throw new IllegalStateException("sandbox simulator not started");
    }
    return server.port();
  }

  /** {@code http://host:port}, the base URL a {@link SandboxChannelConfig} points at. */
  public URI baseUrl() {
    return URI.create("http://" + config.host() + ":" + port());
  }

  /** The simulator's current view of a payment (expiry applied), for tests and tools. */
  public Optional<SimulatedPayment> payment(String paymentId) {
    return payments.find(paymentId);
  }

  /** Sets the global {@link SandboxMode}; payments with their own mode keep it. */
  public void setMode(SandboxMode mode) {
    modes.set(mode);
  }

  /** Sets one payment's own {@link SandboxMode}, which wins over the global one. */
  public void setMode(String paymentId, SandboxMode mode) {
    modes.set(paymentId, mode);
  }

  /** Sets the global {@link RefundMode}; payments with their own refund mode keep it. */
  public void setRefundMode(RefundMode mode) {
    refundModes.set(mode);
  }

  /** Sets one payment's own {@link RefundMode}, which wins over the global one. */
  public void setRefundMode(String paymentId, RefundMode mode) {
    refundModes.set(paymentId, mode);
  }

  /**
   * A refund made in the sandbox's dashboard, one payrelay never requested: no refund number,
   * reported to the payment's notify_url per its {@link RefundMode}.
   *
   * @param amount what goes back, in minor units of the payment's currency
   * @throws SimulatorException 404 unknown payment; 422 not PAID or more than is left
   */
  public SimulatedRefund dashboardRefund(String paymentId, Money amount) {
    return refundApi.dashboardRefund(paymentId, amount);
  }

  /**
   * The calls the sandbox received with our refund number {@code refundNo}: submits (lost ones
   * included) and queries; zeros for a number never seen.
   */
  public RefundCalls.Counts refundCalls(String refundNo) {
    return refundApi.calls(refundNo);
  }

  /** The refunds the simulator holds for a payment, oldest first. */
  public List<SimulatedRefund> refunds(String paymentId) {
    return refunds.of(paymentId);
  }

  /** Drops one payment's own mode, so the global one applies to it again. */
  public void clearMode(String paymentId) {
    modes.clear(paymentId);
  }

  /**
   * The {@code Idempotency-Key}s of the register, query and close calls for a payment, in arrival
   * order, repeats included (payrelay's derive from the payment, so retries repeat them).
   */
  public List<String> idempotencyKeys(String paymentId) {
    return keys.seen(paymentId);
  }

  /** The {@code Idempotency-Key}s of statement calls for {@code date}, in arrival order. */
  public List<String> statementIdempotencyKeys(LocalDate date) {
    return keys.seen(IdempotencyLog.statementScope(date));
  }

  /**
   * Adds a line to the statement of {@code date}, next to the payments the simulator itself saw
   * paid that day: e.g. a transaction payrelay never heard of, another amount, a REFUND. The line
   * is listed as given (its occurred_at need not fall on {@code date}), in occurred_at order.
   */
  public void addStatementLine(LocalDate date, StatementLine line) {
    statement.add(date, line);
  }

  /**
   * Leaves the refund {@code refundId} ({@code sbr_…}) out of every statement from now on, as a
   * channel whose statement misses a refund it made would.
   */
  public void omitRefundFromStatement(String refundId) {
    statement.omitRefund(refundId);
  }

  /**
   * Lists the refund {@code refundId} on every statement from now on with {@code amount} (minor
   * units, any currency) instead of what it gave back.
   */
  public void misstateRefundOnStatement(String refundId, Money amount) {
    statement.misstateRefund(refundId, amount);
  }

  /** Stops the server and drops pending callback retries. Idempotent. */
  @Override
  public synchronized void close() {
    retries.shutdownNow();
    if (server != null) {
      server.stop();
    }
  }
}

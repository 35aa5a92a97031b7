package dev.payrelay.simulators.stripe;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.payrelay.channels.stripe.StripeCallbackParser;
import dev.payrelay.domain.Money;
import dev.payrelay.simulators.RefundMode;
import io.javalin.Javalin;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A small HTTP server playing Stripe's API and webhooks, for development and tests; the adapter
 * reaches it through the official SDK with the API base pointed here.
 *
 * <p>API (form-encoded in, JSON out, {@code Authorization: Bearer <apiKey>}, Stripe's error shape;
 * see {@link StripeSimulatorRoutes}):
 *
 * <ul>
 *   <li>{@code POST /v1/payment_intents} (amount, currency, description, metadata[...]) → the
 *       intent in {@code requires_payment_method}; a three-decimal amount not ending in 0 is 400;
 *   <li>{@code GET /v1/payment_intents/search?query=metadata['k']:'v'} → a {@code search_result};
 *   <li>{@code GET /v1/payment_intents/{id}} → the intent, or 404 {@code resource_missing};
 *   <li>{@code POST /v1/payment_intents/{id}/cancel} → canceled, or 400 {@code
 *       payment_intent_unexpected_state} once succeeded or canceled;
 *   <li>{@code POST /v1/refunds} (payment_intent, amount, metadata[...]) → the Refund, {@code
 *       succeeded} (or {@code failed} per the intent's {@link RefundMode}); 400 {@code
 *       charge_already_refunded}, {@code amount_too_large} (more than is left) or {@code
 *       payment_intent_unexpected_state} (not succeeded); reported in {@code charge.refunded} or
 *       {@code refund.failed} as the mode says;
 *   <li>{@code GET /v1/refunds?payment_intent=} ({@code limit}, {@code starting_after}) → the
 *       intent's refunds, newest first;
 *   <li>{@code GET /v1/balance_transactions} ({@code created[gte]}, {@code created[lt]}, {@code
 *       limit}, {@code starting_after}, {@code expand[]=data.source[.payment_intent]}) → newest
 *       first, a {@code charge} line per payment and a {@code refund} line per refund.
 * </ul>
 *
 * <p>POSTs with an {@code Idempotency-Key} are answered once and replayed after. Webhook events
 * ({@code payment_intent.created/succeeded/canceled/...}, {@code charge.refunded}, {@code
 * charge.dispute.created}) are signed with the SDK and POSTed once to the configured webhook URL
 * ({@link #redeliver} sends one again). State lives in memory only.
 */
public final class StripeSimulator implements AutoCloseable {

  private final StripeSimulatorConfig config;
  private final SimulatedStripe stripe;
  private final StripeEventSender sender;
  private final StripeSimulatorRoutes routes;
  private final StripeRefundDesk refunds;
  private final List<StripeWebhookEvent> sent = new CopyOnWriteArrayList<>();
  private Javalin server;

  /**
   * @param config bind address, keys, webhook URL, page size
   * @param clock the time source for {@code created} fields and signature timestamps
   * @param httpClient the client webhook events are delivered with
   */
  public StripeSimulator(StripeSimulatorConfig config, Clock clock, HttpClient httpClient) {
    ObjectMapper json = new ObjectMapper();
    this.config = config;
    this.stripe = new SimulatedStripe(json, clock);
    this.sender =
        new StripeEventSender(json, clock, httpClient, config.webhookSecret(), config.webhookUrl());
    this.refunds = new StripeRefundDesk(stripe, this::send);
    this.routes =
        new StripeSimulatorRoutes(
            stripe,
            json,
            config,
            pi -> send("payment_intent.created", pi),
            pi -> send("payment_intent.canceled", pi),
            refunds);
  }

  /**
   * Binds and starts serving.
   *
   * @return the bound port
   * @throws IllegalStateException if already started
   */
  public synchronized int start() {
    if (server != null) {
      throw new IllegalStateException("stripe simulator already started");
    }
    Javalin app = Javalin.create(cfg -> cfg.showJavalinBanner = false);
    routes.install(app);
    server = app.start(config.host(), config.port());
    return server.port();
  }

  /**
   * {@code http://host:port}, the API base a {@link StripeChannelConfig} points at.
   *
   * @throws IllegalStateException if not started
   */
  public synchronized URI baseUrl() {
    if (server == null) {
      throw new IllegalStateException("stripe simulator not started");
    }
    return URI.create("http://" + config.host() + ":" + server.port());
  }

  /** The intent id ({@code pi_...}) whose {@code metadata.payment_id} is {@code paymentId}. */
  public String intentId(String paymentId) {
    return stripe.searchByMetadata(StripeCallbackParser.PAYMENT_ID_KEY, paymentId).stream()
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no intent for " + paymentId))
        .get("id")
        .asText();
  }

  /** The buyer pays: the intent succeeds and {@code payment_intent.succeeded} is sent. */
  public StripeWebhookEvent pay(String intentId) {
    return send("payment_intent.succeeded", stripe.succeed(intentId));
  }

  /**
   * A full refund of what is left of the paid intent, made in the dashboard (no {@code
   * metadata.refund_no}: payrelay never requested it); sends {@code charge.refunded} at once.
   */
  public StripeWebhookEvent refund(String intentId) {
    return send("charge.refunded", stripe.refund(intentId));
  }

  /**
   * The refund made through {@code POST /v1/refunds} under merchant refund number {@code refundNo}
   * (its {@code metadata.refund_no}, which payrelay sets to its own refund number), as Stripe would
   * list it now: {@code id} ({@code re_…}), {@code status} ({@code succeeded}, {@code failed}, …),
   * {@code amount} in minor units; empty when there is none.
   */
  public Optional<ObjectNode> refundByNumber(String refundNo) {
    return stripe.refundsByMetadata(StripeCallbackParser.REFUND_NO_KEY, refundNo).stream()
        .findFirst();
  }

  /**
   * Leaves the refund {@code refundId} ({@code re_…}) out of {@code GET /v1/balance_transactions}
   * from now on, as a statement missing a refund Stripe made would.
   */
  public void omitRefundFromBalanceTransactions(String refundId) {
    stripe.balanceFaults().omit(refundId);
  }

  /**
   * Lists the refund {@code refundId}'s balance transaction (and its expanded Refund) with {@code
   * amount} instead of what it gave back, from now on.
   */
  public void misstateRefundInBalanceTransactions(String refundId, Money amount) {
    stripe.balanceFaults().misstate(refundId, amount);
  }

  /** Sets the global {@link RefundMode} for refunds made through {@code POST /v1/refunds}. */
  public void setRefundMode(RefundMode mode) {
    refunds.setMode(mode);
  }

  /** Sets one PaymentIntent's own {@link RefundMode}, which wins over the global one. */
  public void setRefundMode(String intentId, RefundMode mode) {
    refunds.setMode(intentId, mode);
  }

  /** A dispute on the paid intent's charge; sends {@code charge.dispute.created}. */
  public StripeWebhookEvent dispute(String intentId) {
    return send("charge.dispute.created", stripe.dispute(intentId));
  }

  /** Moves the intent to {@code status} (e.g. {@code processing}) and sends {@code eventType}. */
  public StripeWebhookEvent advance(String intentId, String status, String eventType) {
    return send(eventType, stripe.setStatus(intentId, status));
  }

  /** Signs the event's same body anew with the current time and POSTs it again. */
  public StripeWebhookEvent redeliver(StripeWebhookEvent event) {
    StripeWebhookEvent again = sender.deliver(event);
    sent.add(again);
    return again;
  }

  /** Every webhook delivery attempt so far, in order. */
  public List<StripeWebhookEvent> sentEvents() {
    return List.copyOf(sent);
  }

  /**
   * Answers the next {@code times} API requests with {@code status} (e.g. 503, or 429 as Stripe's
   * rate limiter does) and changes nothing, as a failing or overloaded Stripe would.
   */
  public void failNext(int status, int times) {
    routes.failNext(status, times);
  }

  /** Every {@code Idempotency-Key} the API received, in arrival order, repeats included. */
  public List<String> idempotencyKeys() {
    return routes.idempotencyKeys();
  }

  /** Stops the server. Idempotent. */
  @Override
  public synchronized void close() {
    if (server != null) {
      server.stop();
    }
  }

  private StripeWebhookEvent send(String type, ObjectNode object) {
    StripeWebhookEvent event = sender.send(type, object);
    sent.add(event);
    return event;
  }
}

package dev.payrelay.app.runtime;

import dev.payrelay.amqp.AmqpConfig;
import dev.payrelay.amqp.consume.ConsumerQuarantine;
import dev.payrelay.api.admin.AdminService;
import dev.payrelay.api.admin.PaymentListingAdmin;
import dev.payrelay.api.admin.ReconciliationAdmin;
import dev.payrelay.api.admin.RefundFixes;
import dev.payrelay.api.admin.SignalTokenIssuer;
import dev.payrelay.api.admin.TemporalPaymentSignals;
import dev.payrelay.api.admin.TemporalRefundSignals;
import dev.payrelay.api.auth.ApiKeys;
import dev.payrelay.api.health.Readiness;
import dev.payrelay.api.http.ApiHandlers;
import dev.payrelay.api.http.ApiServer;
import dev.payrelay.api.http.CodecEndpoint;
import dev.payrelay.api.payment.PaymentQueries;
import dev.payrelay.api.payment.PaymentService;
import dev.payrelay.api.refund.RefundService;
import dev.payrelay.api.webhook.WebhookService;
import dev.payrelay.app.config.ChannelAccountSettings;
import dev.payrelay.app.config.ChannelAccountsFile;
import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.config.TemporalSecurity;
import dev.payrelay.channels.sandbox.SandboxChannel;
import dev.payrelay.channels.sandbox.SandboxChannelConfig;
import dev.payrelay.domain.channel.ChannelAccount;
import dev.payrelay.domain.channel.ChannelRegistry;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.ledger.inbox.QuarantineDiscards;
import dev.payrelay.ledger.inbox.QuarantineReplays;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.payment.PaymentAudit;
import dev.payrelay.ledger.refund.RefundAudit;
import dev.payrelay.ledger.refund.RefundOutcomes;
import dev.payrelay.ledger.refund.RefundRequests;
import dev.payrelay.ledger.refund.RefundResolutions;
import dev.payrelay.ledger.refund.RefundStore;
import dev.payrelay.temporal.client.PaymentListing;
import dev.payrelay.temporal.client.WorkflowInspection;
import io.temporal.client.WorkflowClient;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jooq.DSLContext;

/**
 * The API role: payments, channel webhooks, health and metrics over HTTP. Needs only the database,
 * and is ready while it answers ({@link ProcessReadiness#api}) unless given another {@link
 * #readiness}. Built once per server: {@code new ApiRuntime(...).start()}.
 */
public final class ApiRuntime {

  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(ApiRuntime.class);

  private final PayrelayConfig config;
  private final Services services;
  private final ApiKeys keys;
  private final WorkflowClient temporal;
  private final Runnable outboxCommitted;
  private Readiness readiness;

  /**
   * The API over these collaborators.
   *
   * @param keys the API keys accepted (the configured ones, or dev's own)
   * @param temporal the client admin signals go through (the API accepts callbacks without it)
   * @param outboxCommitted called after each local commit that wrote an outbox event
   */
  public ApiRuntime(
      PayrelayConfig config,
      Services services,
      ApiKeys keys,
      WorkflowClient temporal,
      Runnable outboxCommitted) {
    this.config = config;
    this.services = services;
    this.keys = keys;
    this.temporal = temporal;
    this.outboxCommitted = outboxCommitted;
  }

  /**
   * Its {@code /health/ready} reports {@code readiness} instead (e.g. {@code dev}'s, which checks
   * the broker and Temporal too); the server closes it.
   *
   * @return this
   */
  public ApiRuntime readiness(Readiness readiness) {
    this.readiness = readiness;
    return this;
  }

  /**
   * Builds and starts the API server on the configured host and port, with the admin endpoints on
   * their own listener when {@code PAYRELAY_ADMIN_PORT} is set.
   */
  public ApiServer start() {
    Readiness ready = readiness();
    if (keys.isEmpty()) {
      log.warn(
          "no API keys configured (PAYRELAY_API_KEYS, PAYRELAY_API_KEYS_FILE): payment and admin"
              + " endpoints answer 401 to every request");
    }
    PayrelayConfig.AccessSettings access = config.access();
    ApiServer server = build(ready);
    return access.adminPort() == null
        ? server.start(config.api().host(), config.api().port())
        : server.start(
            config.api().host(), config.api().port(), access.adminHost(), access.adminPort());
  }

  /** Builds (does not start) the API server. */
  public ApiServer build() {
    return build(readiness());
  }

  private Readiness readiness() {
    return readiness != null ? readiness : ProcessReadiness.api(config, services);
  }

  private ApiServer build(Readiness ready) {
    ChannelRegistry channels = channelRegistry(config);
    return new ApiServer(
        new ApiHandlers(
            new PaymentService(
                services.payments(), channels, config.api().paymentTtl(), outboxCommitted),
            queries(),
            webhooks(channels),
            admin(),
            new ReconciliationAdmin(services.reconciliation(), channels, temporal),
            new PaymentListingAdmin(new PaymentListing(temporal)),
            services.metrics(),
            ready,
            config.api().webhookBodyLimit(),
            keys,
            codecEndpoint(config, keys),
            quarantineAdmin(config, services),
            refunds(),
            refundFixes()),
        config.access().adminPort() != null,
        config.api().limits());
  }

  /** Refund requests and reads, over the API's pool. */
  private RefundService refunds() {
    DSLContext dsl = services.database().dsl();
    return new RefundService(
        new RefundRequests(dsl, new OutboxWriter(new EventJson())),
        new RefundStore(dsl),
        services.payments(),
        outboxCommitted,
        workflowInspection(),
        services.crashPoints());
  }

  /**
   * An operator's fixes of a stuck refund, signalled to its workflow with the caller's signal token
   * and the start input the dispatcher would give it.
   */
  private RefundFixes refundFixes() {
    DSLContext dsl = services.database().dsl();
    return new RefundFixes(
        new RefundStore(dsl),
        services.payments(),
        new RefundResolutions(dsl, new RefundOutcomes(dsl, new OutboxWriter(new EventJson()))),
        new RefundAudit(dsl),
        new TemporalRefundSignals(
            temporal, config.amqp().publishRetries(), config.temporal().refundQueries()),
        signalTokens(),
        RefundFixes.VERDICT_WAIT);
  }

  private SignalTokenIssuer signalTokens() {
    return new SignalTokenIssuer(
        config.access().signalTokens().tokens(), services.payments(), services.outbox());
  }

  /**
   * A payment's trail: the payment, its events, grants and audit rows, and its workflow with a link
   * into the configured Temporal UI ({@code PAYRELAY_TEMPORAL_UI_URL}).
   */
  private PaymentQueries queries() {
    return new PaymentQueries(
        services.payments(),
        services.outbox(),
        services.entitlements(),
        new PaymentAudit(services.database().dsl()),
        workflowInspection());
  }

  /**
   * Reads workflows for trails, linking into {@code PAYRELAY_TEMPORAL_UI_URL}; null without one.
   */
  private WorkflowInspection workflowInspection() {
    return temporal == null ? null : new WorkflowInspection(temporal, config.temporal().uiUrl());
  }

  /** The channels' callbacks, into the inbox and the ledger. */
  private WebhookService webhooks(ChannelRegistry channels) {
    return new WebhookService(
        services.inbox().withRejectedBodyBytes(config.inbox().rejectedBodyBytes()),
        services.ledger(),
        channels,
        services.metrics(),
        Clock.systemUTC(),
        outboxCommitted,
        services.crashPoints());
  }

  /** The operator endpoints: resolutions, DEAD events, signals and signal tokens. */
  private AdminService admin() {
    return new AdminService(
        services.resolutions(),
        services.deadEvents(),
        services.payments(),
        services.outbox(),
        new TemporalPaymentSignals(
            temporal, config.amqp().publishRetries(), config.temporal().channelQueries()),
        signalTokens());
  }

  /**
   * The consumers' quarantine queues on the configured broker, audited in the database. Each
   * request opens its own AMQP connection, so the API starts and serves everything else while
   * RabbitMQ is down; those requests then answer 503.
   */
  static BrokerQuarantineAdmin quarantineAdmin(PayrelayConfig config, Services services) {
    PayrelayConfig.AmqpSettings amqp = config.amqp();
    return new BrokerQuarantineAdmin(
        new ConsumerQuarantine(
            new AmqpConfig(amqp.uri(), amqp.exchange(), amqp.confirmTimeout(), 1, "payrelay-api"),
            config.consumers().queuePrefix()),
        new QuarantineReplays(services.database().dsl()),
        new QuarantineDiscards(services.database().dsl()));
  }

  /**
   * The Temporal UI's codec endpoint with the configured payload codec and UI origins. With
   * encryption on, it decodes only for a request with a valid API key for every tenant ({@code
   * Authorization: Bearer prk_...}, any role; a payload names no tenant to check) and encodes only
   * for such a key with role {@code operate} or more, unless {@code PAYRELAY_CODEC_AUTH=open} (a UI
   * without login on a trusted network); without encryption it has nothing to reveal and answers
   * payloads unchanged.
   */
  static CodecEndpoint codecEndpoint(PayrelayConfig config, ApiKeys keys) {
    TemporalSecurity security = config.temporal().security();
    return new CodecEndpoint(
        security.payloadCodec().orElse(null),
        security.codecCorsOrigins(),
        codecAccess(config, keys));
  }

  /** Who the codec endpoint decodes for: see {@link #codecEndpoint}. */
  public static CodecEndpoint.Access codecAccess(PayrelayConfig config, ApiKeys keys) {
    if (config.temporal().security().payloadCodec().isEmpty() || config.access().codecOpen()) {
      return CodecEndpoint.Access.OPEN;
    }
    return (authorization, needed) ->
        authorization != null
            && authorization.regionMatches(true, 0, "Bearer ", 0, 7)
            && keys.authenticate(authorization.substring(7).strip())
                .filter(key -> key.allTenants() && key.role().includes(needed))
                .isPresent();
  }

  /**
   * Every channel's merchant accounts: the sandbox's default account and its tenant accounts, each
   * with an adapter holding its own secret (unless {@code PAYRELAY_SANDBOX_ENABLED=false}), then
   * the default and tenant accounts of Stripe, Alipay and WeChat Pay when active ({@link
   * ChannelAdapters}).
   *
   * @throws IllegalArgumentException when the sandbox is off but has tenant accounts, or as {@link
   *     ChannelAdapters#accounts}
   */
  public static ChannelRegistry channelRegistry(PayrelayConfig config) {
    List<ChannelAccount> accounts = new ArrayList<>();
    if (config.sandbox().enabled()) {
      accounts.addAll(sandboxAccounts(config));
    } else if (!config.sandbox().accounts().isEmpty()) {
      throw new IllegalArgumentException(
          ChannelAccountsFile.VARIABLE
              + " has sandbox accounts but PAYRELAY_SANDBOX_ENABLED is false");
    }
    accounts.addAll(ChannelAdapters.accounts(config));
    return ChannelRegistry.of(accounts);
  }

  private static List<ChannelAccount> sandboxAccounts(PayrelayConfig config) {
    List<ChannelAccount> accounts = new ArrayList<>();
    accounts.add(
        ChannelAccount.defaultAccount(config.sandbox().merchantId(), sandboxChannel(config)));
    for (ChannelAccountSettings a : config.sandbox().accounts()) {
      accounts.add(
          new ChannelAccount(
              a.merchantId(), a.tenants(), sandboxChannel(config, a.merchantId(), a.secret())));
    }
    return accounts;
  }

  /**
   * The sandbox channel adapter of the default account (the worker's queries, closes and
   * statements, which the sandbox's API answers for every merchant; the soak reads the statement's
   * refunds with it). Requests time out after 5 s.
   */
  public static SandboxChannel sandboxChannel(PayrelayConfig config) {
    return sandboxChannel(config, config.sandbox().merchantId(), config.sandbox().secret());
  }

  private static SandboxChannel sandboxChannel(
      PayrelayConfig config, String merchantId, String secret) {
    PayrelayConfig.SandboxSettings s = config.sandbox();
    return new SandboxChannel(
        new SandboxChannelConfig(
            s.url(),
            merchantId,
            secret,
            config.api().webhookUrl(SandboxChannel.NAME),
            s.signatureTolerance(),
            Duration.ofSeconds(5)),
        Clock.systemUTC(),
        HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build());
  }
}

package dev.payrelay.app.config;

import dev.payrelay.amqp.QueueBinding;
import dev.payrelay.api.auth.ApiKeys;
import dev.payrelay.api.http.HttpLimits;
import dev.payrelay.app.config.binder.Binder;
import dev.payrelay.app.config.binder.Binding;
import dev.payrelay.app.config.binder.ConfigProblems;
import dev.payrelay.app.jobs.LeaseDeadline;
import dev.payrelay.app.jobs.ReconciliationSchedule;
import dev.payrelay.domain.crash.CrashPoints;
import dev.payrelay.ledger.db.DatabaseConfig;
import dev.payrelay.workflows.ChannelQueryPolicy;
import dev.payrelay.workflows.PublishRetryPolicy;
import dev.payrelay.workflows.RefundQueryPolicy;
import io.temporal.serviceclient.GrpcCompression;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * payrelay's whole configuration, read once at start into immutable records and passed by
 * constructor. Every setting is declared once, with its type, default, bounds and description, in
 * {@link dev.payrelay.app.config.mapping.PayrelayMapping}; the binder ({@link Binder}) reads it
 * from the environment and the configuration file, and {@link ConfigAssembly} builds these records
 * from it. Every setting has a local-development default, so {@code payrelay dev} needs none.
 *
 * @param database the pool of one-shot commands, and the fallback of both pools in {@code sizing};
 *     the API and the worker open {@link #apiDatabase()} and {@link #workerDatabase()}
 * @param sizing the pools and everything derived from them: {@link Sizing}
 * @param amqp the broker
 * @param temporal the Temporal client and the worker's Temporal-side jobs
 * @param api the HTTP API
 * @param sandbox the sandbox channel and its simulator
 * @param dispatcher the outbox dispatcher
 * @param outbox the outbox's retention purge and statistics
 * @param inbox the webhook inbox's retention: {@link InboxRetentionSettings}
 * @param crashPoints where this process halts on request, for crash tests and drills ({@link
 *     CrashPoints}); none in production
 * @param access API keys, the admin listener, and how the CLI reaches the admin API
 * @param profile whether {@code api}, {@code worker} and {@code sandbox} run in production mode
 *     ({@link Profile}, {@link ProductionChecks})
 * @param operations the worker's metrics and health listener, the logs: {@link OperationsSettings}
 * @param consumers the worker's event consumers on the consumer kit: {@link ConsumersSettings}
 * @param stripe the Stripe channel: {@link StripeSettings}
 * @param alipay the Alipay channel: {@link AlipaySettings}
 * @param wechatpay the WeChat Pay APIv3 channel: {@link WechatPaySettings}
 */
public record PayrelayConfig(
    DatabaseConfig database,
    Sizing sizing,
    AmqpSettings amqp,
    TemporalSettings temporal,
    ApiSettings api,
    SandboxSettings sandbox,
    DispatcherSettings dispatcher,
    OutboxMaintenanceSettings outbox,
    InboxRetentionSettings inbox,
    CrashPoints crashPoints,
    AccessSettings access,
    Profile profile,
    OperationsSettings operations,
    ConsumersSettings consumers,
    StripeSettings stripe,
    AlipaySettings alipay,
    WechatPaySettings wechatpay) {

  /** The pool name of the API's ingestion pool, as in its metrics' {@code pool} tag. */
  public static final String API_POOL = "payrelay-api";

  /** The pool name of the worker's delivery pool, as in its metrics' {@code pool} tag. */
  public static final String WORKER_POOL = "payrelay-worker";

  /**
   * Reads the configuration of an environment: its {@code PAYRELAY_*} variables over the
   * configuration file ({@code PAYRELAY_CONFIG_FILE}, else {@code ./payrelay.yaml} when it exists),
   * and for the Temporal client Temporal's own {@code TEMPORAL_*} variables and {@code
   * temporal.toml} profile ({@link TemporalClientConfig}).
   *
   * @throws ConfigProblems listing every unknown, renamed, mistyped, out-of-bounds or contradictory
   *     setting, each named
   */
  public static PayrelayConfig fromEnv(Map<String, String> env) {
    return from(Binder.bind(env));
  }

  /**
   * Builds the configuration of a binding ({@link Binder#bind}).
   *
   * @throws ConfigProblems listing every contradictory setting and unreadable file, each named
   */
  public static PayrelayConfig from(Binding binding) {
    return ConfigAssembly.assemble(binding);
  }

  /** The same configuration with other Temporal settings (e.g. {@code --embedded-temporal}). */
  public PayrelayConfig withTemporal(TemporalSettings settings) {
    return new PayrelayConfig(
        database,
        sizing,
        amqp,
        settings,
        api,
        sandbox,
        dispatcher,
        outbox,
        inbox,
        crashPoints,
        access,
        profile,
        operations,
        consumers,
        stripe,
        alipay,
        wechatpay);
  }

  /** The same configuration with other Stripe settings (dev's simulator). */
  public PayrelayConfig withStripe(StripeSettings settings) {
    return withChannels(settings, alipay, wechatpay);
  }

  /** The same configuration with other Alipay settings (dev's simulator). */
  public PayrelayConfig withAlipay(AlipaySettings settings) {
    return withChannels(stripe, settings, wechatpay);
  }

  /** The same configuration with other WeChat Pay settings (dev's simulator). */
  public PayrelayConfig withWechatPay(WechatPaySettings settings) {
    return withChannels(stripe, alipay, settings);
  }

  private PayrelayConfig withChannels(
      StripeSettings stripeSettings,
      AlipaySettings alipaySettings,
      WechatPaySettings wechatpaySettings) {
    return new PayrelayConfig(
        database,
        sizing,
        amqp,
        temporal,
        api,
        sandbox,
        dispatcher,
        outbox,
        inbox,
        crashPoints,
        access,
        profile,
        operations,
        consumers,
        stripeSettings,
        alipaySettings,
        wechatpaySettings);
  }

  /** Whether the long-running roles run in production mode: see {@link Profile}. */
  public boolean isProduction() {
    return profile.isProduction(temporal.address());
  }

  /**
   * The API's ingestion pool: webhooks, payment creation, admin requests; its sessions wait for a
   * row lock at most {@link ApiSettings#lockWaitTimeout}.
   */
  public DatabaseConfig apiDatabase() {
    return database.withPool(API_POOL, sizing.apiPool()).withLockWaitTimeout(api.lockWaitTimeout());
  }

  /** The consumers' pool: one connection per consumer channel ({@link ConsumersSettings}). */
  public DatabaseConfig consumerDatabase() {
    return database.withPool(ConsumersSettings.POOL_NAME, consumers.pool());
  }

  /**
   * The pool of the consumer {@code name}, one per consumer so that one consumer's backlog never
   * waits on another's connections: {@code payrelay-consumer} for {@code notifications} (as before
   * there were two), {@code payrelay-consumer-<name>} for the others; each of {@code
   * PAYRELAY_DB_POOL_CONSUMER} connections.
   */
  public DatabaseConfig consumerDatabase(String name) {
    return ConsumersSettings.NOTIFICATIONS.equals(name)
        ? consumerDatabase()
        : database.withPool(ConsumersSettings.POOL_NAME + "-" + name, consumers.pool());
  }

  /** The worker's delivery pool: dispatcher, activities, safety nets, housekeeping. */
  public DatabaseConfig workerDatabase() {
    return database.withPool(WORKER_POOL, sizing.workerPool());
  }

  /**
   * The broker ({@code PAYRELAY_AMQP_*}).
   *
   * @param uri the AMQP URI
   * @param exchange the topic exchange events are published to
   * @param confirmTimeout how long a publish waits for its broker confirm
   * @param queues the durable queues payrelay declares and binds at start
   * @param publishRetries the publish retry policy per event type, {@code *} for the rest; empty
   *     for the workflow's default
   */
  public record AmqpSettings(
      String uri,
      String exchange,
      Duration confirmTimeout,
      List<QueueBinding> queues,
      Map<String, PublishRetryPolicy> publishRetries) {

    /** Copies the collections. */
    public AmqpSettings {
      queues = List.copyOf(queues);
      publishRetries = Map.copyOf(publishRetries);
    }
  }

  /**
   * Temporal: the client connection ({@link TemporalClientConfig}) and the worker's jobs around it.
   *
   * @param address host:port of a running frontend; null means the local server ({@link
   *     LocalTemporal}), which {@code payrelay dev} starts when it is not running yet
   * @param namespace created with payrelay's search attributes when missing
   * @param local the local server used when no address is set
   * @param channelQueries when a payment's workflow asks the channel about an unconfirmed payment
   * @param refundQueries when a refund's workflow asks the channel about a refund whose result is
   *     unknown, and when it needs an operator
   * @param dailyReconciliation whether workers keep the daily reconciliation Schedules ({@link
   *     ReconciliationSchedule})
   * @param expirySweep how often PENDING payments past their deadline are handed over again; zero
   *     for never
   * @param expirySweepGrace how long past the deadline a payment is left to its own workflow
   * @param grantRepair how often PAID payments missing an entitlement are looked for; zero for
   *     never
   * @param grantRepairAfter how long after being paid a payment is left to its own workflow's grant
   * @param security TLS/mTLS and API key of the connection, payload encryption, the codec
   *     endpoint's allowed origins ({@link TemporalSecurity})
   * @param compression the gRPC message compression of calls to the frontend
   * @param addressSource where the address came from, named in messages: {@code
   *     PAYRELAY_TEMPORAL_ADDRESS}, {@code TEMPORAL_ADDRESS}, a {@code temporal.toml} profile;
   *     {@code unset} for the local server
   * @param uiUrl the Temporal UI's base URL for workflow links: {@code PAYRELAY_TEMPORAL_UI_URL},
   *     else the local server's UI when the local dev server is used; null for no links
   */
  public record TemporalSettings(
      String address,
      String namespace,
      LocalTemporal local,
      ChannelQueryPolicy channelQueries,
      RefundQueryPolicy refundQueries,
      boolean dailyReconciliation,
      Duration expirySweep,
      Duration expirySweepGrace,
      Duration grantRepair,
      Duration grantRepairAfter,
      TemporalSecurity security,
      GrpcCompression compression,
      String addressSource,
      URI uiUrl) {

    /** Whether no address is set, so the local server is used. */
    public boolean isLocal() {
      return address == null;
    }

    /** The frontend address to connect to (host:port). */
    public String target() {
      return isLocal() ? "127.0.0.1:" + local.port() : address;
    }

    /**
     * The same settings with the in-memory Java test server as the local server, which has no UI:
     * no links unless a UI URL was set explicitly.
     */
    public TemporalSettings inMemory() {
      return new TemporalSettings(
          null,
          namespace,
          local.withInMemory(),
          channelQueries,
          refundQueries,
          dailyReconciliation,
          expirySweep,
          expirySweepGrace,
          grantRepair,
          grantRepairAfter,
          security,
          compression,
          "unset",
          uiUrl == null || uiUrl.equals(local.uiUrl()) ? null : uiUrl);
    }
  }

  /**
   * The local Temporal server of {@code payrelay dev}: the Temporal CLI's dev server (a real server
   * with persistence, visibility, Schedules and the Web UI), run as a child process bound to
   * 127.0.0.1.
   *
   * @param cli the {@code temporal} executable
   * @param port the gRPC frontend's port
   * @param uiPort the Web UI's port (and the codec endpoint's default CORS origins)
   * @param dataDir holds {@code temporal.db} (SQLite) and {@code temporal.log}
   * @param inMemory the Java test server instead: in memory, no UI, no listing, no Schedules
   * @param uiCodecEndpoint with payload encryption on, the API's codec endpoint the Web UI decodes
   *     through ({@code --ui-codec-endpoint}, {@code http://127.0.0.1:<admin or API
   *     port>/v1/codec}); null without encryption
   */
  public record LocalTemporal(
      String cli, int port, int uiPort, Path dataDir, boolean inMemory, URI uiCodecEndpoint) {

    /** The Web UI's base address. */
    public URI uiUrl() {
      return URI.create("http://127.0.0.1:" + uiPort);
    }

    LocalTemporal withInMemory() {
      return new LocalTemporal(cli, port, uiPort, dataDir, true, null);
    }
  }

  /**
   * The HTTP API ({@code PAYRELAY_API_*}).
   *
   * @param host the listener's address
   * @param port the listener's port
   * @param publicUrl how channels reach us
   * @param paymentTtl how long a created payment waits to be paid
   * @param webhookBodyLimit larger callbacks are recorded (their first bytes) and refused with 413,
   *     in bytes
   * @param lockWaitTimeout how long a statement of the API's pool waits for a lock, so a callback
   *     meeting a held row is answered 503 before its channel gives up
   * @param limits what slow and greedy clients may hold of the API's listeners ({@link HttpLimits})
   */
  public record ApiSettings(
      String host,
      int port,
      URI publicUrl,
      Duration paymentTtl,
      int webhookBodyLimit,
      Duration lockWaitTimeout,
      HttpLimits limits) {

    /** {@code PAYRELAY_API_LOCK_WAIT} when unset, in seconds. */
    public static final int DEFAULT_LOCK_WAIT_SECONDS = 2;

    /**
     * The largest {@code PAYRELAY_API_LOCK_WAIT}, in seconds: a callback held longer than twice
     * this has long been given up by its channel.
     */
    public static final int MAX_LOCK_WAIT_SECONDS = 60;

    /** The webhook URL for a channel, e.g. {@code http://127.0.0.1:8080/v1/webhooks/sandbox}. */
    public URI webhookUrl(String channel) {
      return URI.create(publicUrl.toString().replaceAll("/$", "") + "/v1/webhooks/" + channel);
    }

    /**
     * The webhook URL of one merchant account at a channel, e.g. {@code
     * http://127.0.0.1:8080/v1/webhooks/wechatpay/1900000002}: its callbacks are verified by that
     * account's adapter.
     */
    public URI webhookUrl(String channel, String merchantId) {
      return URI.create(
          webhookUrl(channel) + "/" + URLEncoder.encode(merchantId, StandardCharsets.UTF_8));
    }
  }

  /**
   * The sandbox channel ({@code PAYRELAY_SANDBOX_*}).
   *
   * @param enabled whether the API and worker serve it (a test channel: its simulator marks any
   *     payment PAID on request); false with sandbox accounts in the channel accounts file stops
   *     the start
   * @param url how payrelay reaches the channel
   * @param bindHost where {@code payrelay sandbox/dev} serves it
   * @param port where {@code payrelay sandbox/dev} serves it
   * @param merchantId the default merchant account, used by every tenant without one in {@code
   *     accounts}
   * @param secret the default account's HMAC key shared with the channel
   * @param signatureTolerance how old a callback's signed timestamp may be
   * @param secretSetting the variable {@code secret} came from, named in production refusals
   * @param accounts the sandbox's tenant accounts ({@link ChannelAccountsFile}); empty when none
   */
  public record SandboxSettings(
      boolean enabled,
      URI url,
      String bindHost,
      int port,
      String merchantId,
      String secret,
      Duration signatureTolerance,
      String secretSetting,
      List<ChannelAccountSettings> accounts) {

    /** Copies the accounts. */
    public SandboxSettings {
      accounts = List.copyOf(accounts);
    }

    /** These settings with {@code tenantAccounts} as the sandbox's tenant accounts. */
    SandboxSettings withAccounts(List<ChannelAccountSettings> tenantAccounts) {
      return new SandboxSettings(
          enabled,
          url,
          bindHost,
          port,
          merchantId,
          secret,
          signatureTolerance,
          secretSetting,
          tenantAccounts);
    }

    /** The secret stays out of logs. */
    @Override
    public String toString() {
      return "SandboxSettings[enabled=%s, url=%s, bindHost=%s, port=%d, merchantId=%s, secret from %s, signatureTolerance=%s, accounts=%s]"
          .formatted(
              enabled,
              url,
              bindHost,
              port,
              merchantId,
              secretSetting,
              signatureTolerance,
              accounts);
    }
  }

  /**
   * Who may use the API, where its admin endpoints listen, and how the CLI reaches them.
   *
   * @param keys the API keys the server accepts ({@link ApiKeys} gives the format); none: payment
   *     and admin endpoints answer 401 to everyone, except under {@code payrelay dev}, which makes
   *     its own key
   * @param adminHost the admin listener's address
   * @param adminPort when set, {@code /v1/admin/...} and {@code /metrics} are served only on this
   *     port; null serves them with the rest
   * @param adminUrl where the CLI sends admin requests
   * @param clientKey the key the CLI sends, else the dev key {@code payrelay dev} keeps in its data
   *     directory ({@link #DEV_KEY_FILE}); null when there is none
   * @param clientKeySource where {@code clientKey} came from, for messages; null when there is none
   * @param codecOpen whether the codec endpoint decodes for anyone who reaches it, not only for a
   *     request with a valid API key
   * @param signalTokens the tokens that give raw operator signals a verified identity: {@link
   *     SignalTokenSettings}
   */
  public record AccessSettings(
      ApiKeys keys,
      String adminHost,
      Integer adminPort,
      URI adminUrl,
      String clientKey,
      String clientKeySource,
      boolean codecOpen,
      SignalTokenSettings signalTokens) {

    /** The file under the data directory where {@code payrelay dev} keeps its API key. */
    public static final String DEV_KEY_FILE = "dev-api-key";

    @Override
    public String toString() {
      return "AccessSettings["
          + keys.size()
          + " key(s), admin "
          + (adminPort == null ? "with the API" : adminHost + ":" + adminPort)
          + ", CLI to "
          + adminUrl
          + (clientKey == null ? " without a key" : " with a key")
          + (codecOpen ? ", codec endpoint open" : "")
          + ", "
          + signalTokens
          + "]";
    }
  }

  /**
   * The outbox dispatcher ({@code PAYRELAY_DISPATCH_*}).
   *
   * @param batchSize rows claimed per round
   * @param lease claim lease; a claim's hand-offs end a third of it after the claim ({@link
   *     LeaseDeadline})
   * @param idlePollMax the longest sleep when idle
   * @param retryInitial first backoff after a failed hand-off (1 s)
   * @param retryMax backoff cap (5 min)
   * @param redispatchAfter a DISPATCHED row not SENT after this long is handed over again
   * @param handoffs how many payments' events are handed to Temporal at once
   * @param window how many events may be handed off whose signal no workflow task has handled yet
   *     ({@link dev.payrelay.app.dispatch.HandoffWindow}), at least 1
   */
  public record DispatcherSettings(
      int batchSize,
      Duration lease,
      Duration idlePollMax,
      Duration retryInitial,
      Duration retryMax,
      Duration redispatchAfter,
      int handoffs,
      int window) {

    /**
     * The shortest lease, in seconds: its third, the hand-off deadline, plus the one retry backoff
     * the Temporal SDK may still sleep after it ({@link LeaseDeadline#SDK_BACKOFF_OVERRUN}, 6 s)
     * leaves at least 4 s of the lease to write back.
     */
    public static final int MIN_LEASE_SECONDS = 15;

    /**
     * The longest lease, in seconds: the lease is also how long the rows of a dispatcher that died
     * (and is not restarted under its name) wait for another one.
     */
    public static final int MAX_LEASE_SECONDS = 3_600;
  }

  /**
   * The worker's outbox housekeeping ({@code PAYRELAY_OUTBOX_*}).
   *
   * @param sentRetention SENT rows whose broker confirm is older than this are purged; PENDING,
   *     DISPATCHED and DEAD rows never are
   * @param purgeBatch rows deleted per statement
   * @param purgeEvery pause between purge runs (10 min)
   * @param statisticsEvery pause between refreshes of the outbox gauges (5 s)
   */
  public record OutboxMaintenanceSettings(
      Duration sentRetention, int purgeBatch, Duration purgeEvery, Duration statisticsEvery) {}
}

package dev.payrelay.app.config;

import dev.payrelay.amqp.AmqpTopology;
import dev.payrelay.amqp.QueueBinding;
import dev.payrelay.api.ApiKeys;
import dev.payrelay.api.HttpLimits;
import dev.payrelay.app.jobs.LeaseDeadline;
import dev.payrelay.app.jobs.ReconciliationSchedule;
import dev.payrelay.domain.crash.CrashPoints;
import dev.payrelay.ledger.db.DatabaseConfig;
import dev.payrelay.workflows.ChannelQueryPolicy;
import dev.payrelay.workflows.PublishRetryPolicy;
import io.temporal.serviceclient.GrpcCompression;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * payrelay's whole configuration, read once at start from environment variables into immutable
 * records and passed by constructor. Every variable has a local-development default, so {@code
 * payrelay dev} needs none.
 *
 * @param database {@code PAYRELAY_DB_URL} (default {@code jdbc:mysql://127.0.0.1:3306/payrelay}),
 *     {@code PAYRELAY_DB_USER} (root), {@code PAYRELAY_DB_PASSWORD} (empty), {@code
 *     PAYRELAY_DB_POOL} (10): the pool of one-shot commands ({@code migrate}, {@code resolve}, ...)
 *     and the fallback of both pools in {@code sizing}; the API and the worker open {@link
 *     #apiDatabase()} and {@link #workerDatabase()}
 * @param sizing the pools and everything derived from them (activity and workflow task slots,
 *     pollers, workflow cache and threads, AMQP channels): {@link Sizing}
 * @param amqp the broker
 * @param temporal the Temporal frontend; the local dev server when no address is set
 * @param api the HTTP API
 * @param sandbox the sandbox channel and its simulator
 * @param dispatcher the outbox dispatcher
 * @param outbox the outbox's retention purge and statistics
 * @param inbox the webhook inbox's retention: {@link InboxRetentionSettings}
 * @param crashPoints {@code PAYRELAY_CRASH_AT=<point>[:<nth>]}: halt the process at that crash
 *     point's n-th passage, for crash tests and drills ({@link CrashPoints}); unset in production
 * @param access API keys, the admin listener, and how the CLI reaches the admin API
 * @param profile {@code PAYRELAY_PROFILE} ({@code dev}, {@code prod}, unset): whether {@code api},
 *     {@code worker} and {@code sandbox} run in production mode ({@link Profile}, {@link
 *     ProductionChecks})
 * @param operations the worker's metrics and health listener, the log format: {@link
 *     OperationsSettings}
 * @param consumers the worker's event consumers on the consumer kit: {@link ConsumersSettings}
 * @param stripe the Stripe channel ({@code PAYRELAY_STRIPE_*}): {@link StripeSettings}
 * @param alipay the Alipay channel ({@code PAYRELAY_ALIPAY_*}): {@link AlipaySettings}
 * @param wechatpay the WeChat Pay APIv3 channel ({@code PAYRELAY_WECHATPAY_*}): {@link
 *     WechatPaySettings}
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

  /** The worker's delivery pool: dispatcher, activities, safety nets, housekeeping. */
  public DatabaseConfig workerDatabase() {
    return database.withPool(WORKER_POOL, sizing.workerPool());
  }

  /**
   * The broker.
   *
   * @param uri {@code PAYRELAY_AMQP_URI}, default {@code amqp://guest:guest@127.0.0.1:5672/%2f}
   * @param exchange {@code PAYRELAY_AMQP_EXCHANGE}, default {@code payrelay.events}
   * @param confirmTimeout {@code PAYRELAY_AMQP_CONFIRM_TIMEOUT_MS}, default 5000
   * @param queues {@code PAYRELAY_AMQP_QUEUES}: the durable queues payrelay declares and binds at
   *     start, as {@code queue=pattern[,queue=pattern...]}; default {@code
   *     payrelay.payment-events=payment.#} so a normal run is routable; empty string for none
   * @param publishRetries {@code PAYRELAY_PUBLISH_RETRY}: per event type {@code
   *     Type=initial/maxInterval/maxAttempts}, comma-separated, {@code *} for the rest, e.g. {@code
   *     PaymentConfirmed=1s/30s/20,*=1s/60s/12}; default: 1 s doubling to 60 s, 12 attempts
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
   * Temporal.
   *
   * @param address {@code PAYRELAY_TEMPORAL_ADDRESS} host:port of a running frontend; null means
   *     the local dev server ({@link LocalTemporal}), which {@code payrelay dev} starts when it is
   *     not running yet
   * @param namespace {@code PAYRELAY_TEMPORAL_NAMESPACE}, default {@code default}; created with
   *     payrelay's search attributes when missing
   * @param local the local server used when no address is set
   * @param channelQueries when a payment's workflow asks the channel about an unconfirmed payment:
   *     {@code PAYRELAY_QUERY_GRACE_SECONDS} (30), {@code PAYRELAY_QUERY_INITIAL_SECONDS} (30),
   *     {@code PAYRELAY_QUERY_MAX_SECONDS} (600)
   * @param dailyReconciliation {@code PAYRELAY_RECONCILIATION_DAILY} (true): every worker creates,
   *     or updates to its definition, the Temporal Schedule {@code recon-daily-{channel}} per
   *     channel at start; hourly, it starts yesterday's (UTC) {@code recon-{channel}-{date}} unless
   *     running or completed (see {@link ReconciliationSchedule}). Only on the in-memory server, or
   *     a server that answers UNIMPLEMENTED, an hourly in-process tick does the same instead.
   *     false: neither, and an existing Schedule is left as it is (pause or delete it to stop it)
   * @param expirySweep {@code PAYRELAY_EXPIRY_SWEEP_SECONDS} (300; 0 turns it off): how often the
   *     worker hands PENDING payments past their deadline to their workflow again
   * @param expirySweepGrace {@code PAYRELAY_EXPIRY_SWEEP_GRACE_SECONDS} (300): how long past the
   *     deadline a payment is left to its own workflow first
   * @param grantRepair {@code PAYRELAY_GRANT_REPAIR_SECONDS} (15; 0 turns it off): how often one
   *     worker looks for PAID payments missing an entitlement and hands their {@code
   *     PaymentConfirmed} to their workflow again
   * @param grantRepairAfter {@code PAYRELAY_GRANT_REPAIR_AFTER_SECONDS} (30): how long after being
   *     paid a payment is left to its own workflow's grant first
   * @param security TLS/mTLS and API key of the connection, payload encryption, the codec
   *     endpoint's allowed origins ({@link TemporalSecurity}, {@link TemporalTls})
   * @param compression {@code PAYRELAY_TEMPORAL_COMPRESSION}: {@code none} (default) or {@code
   *     gzip}, the gRPC message compression of calls to the frontend. The SDK's own default is
   *     gzip; payrelay's requests are small (ids and states, a few hundred bytes), and flight
   *     recordings showed the compression costing about 3% of the worker's CPU and the server's
   *     decompression more, so it is off unless a slow link needs it
   */
  public record TemporalSettings(
      String address,
      String namespace,
      LocalTemporal local,
      ChannelQueryPolicy channelQueries,
      boolean dailyReconciliation,
      Duration expirySweep,
      Duration expirySweepGrace,
      Duration grantRepair,
      Duration grantRepairAfter,
      TemporalSecurity security,
      GrpcCompression compression) {

    /** Whether no address is set, so the local server is used. */
    public boolean isLocal() {
      return address == null;
    }

    /** The frontend address to connect to (host:port). */
    public String target() {
      return isLocal() ? "127.0.0.1:" + local.port() : address;
    }

    /** The same settings with the in-memory Java test server as the local server. */
    public TemporalSettings inMemory() {
      return new TemporalSettings(
          null,
          namespace,
          local.withInMemory(),
          channelQueries,
          dailyReconciliation,
          expirySweep,
          expirySweepGrace,
          grantRepair,
          grantRepairAfter,
          security,
          compression);
    }
  }

  /**
   * The local Temporal server of {@code payrelay dev}: the Temporal CLI's dev server (a real server
   * with persistence, visibility, Schedules and the Web UI), run as a child process bound to
   * 127.0.0.1.
   *
   * @param cli {@code PAYRELAY_TEMPORAL_CLI}, default {@code temporal} (on the PATH)
   * @param port {@code PAYRELAY_TEMPORAL_PORT}, default 7233: the gRPC frontend
   * @param uiPort {@code PAYRELAY_TEMPORAL_UI_PORT}, default 8233: the Web UI (and the codec
   *     endpoint's default CORS origins, {@link TemporalSecurity})
   * @param dataDir {@code PAYRELAY_DATA_DIR}, default {@code .payrelay}: holds {@code temporal.db}
   *     (SQLite; workflows survive a restart) and {@code temporal.log}
   * @param inMemory the Java test server instead ({@code payrelay dev --embedded-temporal}): in
   *     memory, no UI, no visibility listing, no Schedules, workflows lost on restart
   */
  public record LocalTemporal(String cli, int port, int uiPort, Path dataDir, boolean inMemory) {

    /** The Web UI's base address. */
    public URI uiUrl() {
      return URI.create("http://127.0.0.1:" + uiPort);
    }

    LocalTemporal withInMemory() {
      return new LocalTemporal(cli, port, uiPort, dataDir, true);
    }
  }

  /**
   * The HTTP API.
   *
   * @param host {@code PAYRELAY_API_HOST}, default 127.0.0.1
   * @param port {@code PAYRELAY_API_PORT}, default 8080
   * @param publicUrl {@code PAYRELAY_PUBLIC_URL}: how channels reach us, default {@code
   *     http://host:port}
   * @param paymentTtl {@code PAYRELAY_PAYMENT_TTL_SECONDS}, default 1800 (30 min), 1 s to 366 days
   *     (the longest deadline an extension may set, {@code PaymentDeadlines.MAX_EXTENSION}): 0 or
   *     less made payments that were expired when created
   * @param webhookBodyLimit {@code PAYRELAY_WEBHOOK_MAX_BYTES}: larger callbacks are recorded
   *     (their first bytes) and refused with 413; default 65536
   * @param lockWaitTimeout {@code PAYRELAY_API_LOCK_WAIT_SECONDS}, default 2, at most 60: how long
   *     a statement of the API's pool waits for a row, table or metadata lock (the session's {@code
   *     innodb_lock_wait_timeout} and {@code lock_wait_timeout}) before its transaction is tried
   *     once more and then fails, so a callback meeting a payment row that something holds for
   *     longer is answered 503 (the channel retries) within about twice this: before a channel that
   *     waits a few seconds gives up (the sandbox waits 5 s), not after the server's 50 s (rows) or
   *     one year (metadata) twice over
   * @param limits what slow and greedy clients may hold of the API's listeners, {@code
   *     PAYRELAY_API_HEADER_TIMEOUT_SECONDS}, {@code PAYRELAY_API_BODY_GRACE_SECONDS}, {@code
   *     PAYRELAY_API_BODY_MIN_BYTES_PER_SECOND}, {@code PAYRELAY_API_MAX_WEBHOOK_READS}, {@code
   *     PAYRELAY_API_MAX_CONNECTIONS}, {@code PAYRELAY_API_MAX_CONNECTIONS_PER_CLIENT}, {@code
   *     PAYRELAY_API_ACCEPT_QUEUE}: defaults and bounds in {@link HttpLimits}
   */
  public record ApiSettings(
      String host,
      int port,
      URI publicUrl,
      Duration paymentTtl,
      int webhookBodyLimit,
      Duration lockWaitTimeout,
      HttpLimits limits) {

    /** {@code PAYRELAY_API_LOCK_WAIT_SECONDS} when unset. */
    public static final int DEFAULT_LOCK_WAIT_SECONDS = 2;

    /**
     * The largest {@code PAYRELAY_API_LOCK_WAIT_SECONDS}: a callback held longer than twice this
     * has long been given up by its channel.
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
          webhookUrl(channel)
              + "/"
              + java.net.URLEncoder.encode(merchantId, java.nio.charset.StandardCharsets.UTF_8));
    }
  }

  /**
   * The sandbox channel.
   *
   * @param enabled {@code PAYRELAY_SANDBOX_ENABLED} (default true): whether the API and worker
   *     serve the sandbox channel (a test channel: its simulator marks any payment PAID on
   *     request); production mode refuses true, and false with sandbox accounts in {@code
   *     PAYRELAY_CHANNEL_ACCOUNTS_FILE} stops the start
   * @param url {@code PAYRELAY_SANDBOX_URL}: how payrelay reaches the channel, default {@code
   *     http://127.0.0.1:8090}
   * @param bindHost {@code PAYRELAY_SANDBOX_BIND}: where {@code payrelay sandbox/dev} serves it,
   *     default 127.0.0.1
   * @param port {@code PAYRELAY_SANDBOX_PORT} where {@code payrelay sandbox/dev} serves it, 8090
   * @param merchantId {@code PAYRELAY_SANDBOX_MERCHANT_ID}, default {@code m_payrelay_dev}: the
   *     default merchant account, used by every tenant without an account in {@code accounts}
   * @param secret {@code PAYRELAY_SANDBOX_SECRET}, or the content of the file {@code
   *     PAYRELAY_SANDBOX_SECRET_FILE} names (one trailing line break dropped; not both): the
   *     default account's HMAC key shared with the channel
   * @param signatureTolerance {@code PAYRELAY_SANDBOX_TOLERANCE_SECONDS}, default 300
   * @param secretSetting the variable {@code secret} came from, named in production refusals
   * @param accounts the sandbox's tenant accounts from {@code PAYRELAY_CHANNEL_ACCOUNTS_FILE}
   *     ({@link ChannelAccountsFile}); empty when unset
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
   * @param keys the API keys the server accepts ({@link ApiKeys} gives the format): {@code
   *     PAYRELAY_API_KEYS} (entries separated by newlines or {@code ;}) and the file {@code
   *     PAYRELAY_API_KEYS_FILE}, both read when both are set. None: payment and admin endpoints
   *     answer 401 to everyone, except under {@code payrelay dev}, which makes its own key
   * @param adminHost {@code PAYRELAY_ADMIN_HOST} (default 127.0.0.1): the admin listener's address
   * @param adminPort {@code PAYRELAY_ADMIN_PORT}: when set, {@code /v1/admin/...} and {@code
   *     /metrics} are served only on this port; null (unset) serves them with the rest
   * @param adminUrl {@code PAYRELAY_ADMIN_URL}: where the CLI sends admin requests, default {@code
   *     http://127.0.0.1:<admin port, or the API port>}
   * @param clientKey the key the CLI sends: {@code PAYRELAY_API_KEY}, else the first line of the
   *     file {@code PAYRELAY_API_KEY_FILE}, else the dev key {@code payrelay dev} keeps in its data
   *     directory ({@link #DEV_KEY_FILE}); null when there is none
   * @param clientKeySource where {@code clientKey} came from (a setting or the dev key file), for
   *     messages; null when there is no key
   * @param codecOpen {@code PAYRELAY_CODEC_AUTH}: {@code key} (default) — with payload encryption
   *     on, the codec endpoint decodes only for a request with a valid API key (the Temporal CLI's
   *     {@code --codec-auth "Bearer prk_..."}); {@code open} — for anyone who reaches it, for a
   *     Temporal UI without login on a trusted network (put it on the admin listener)
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
   * The outbox dispatcher.
   *
   * @param batchSize rows claimed per round ({@code PAYRELAY_DISPATCH_BATCH}, 50)
   * @param lease claim lease ({@code PAYRELAY_DISPATCH_LEASE_SECONDS}, 30, {@value
   *     #MIN_LEASE_SECONDS}..{@value #MAX_LEASE_SECONDS}); a claim's hand-offs end a third of it
   *     after the claim ({@link LeaseDeadline})
   * @param idlePollMax the longest sleep when idle ({@code PAYRELAY_DISPATCH_POLL_MAX_MS}, 1000)
   * @param retryInitial first backoff after a failed hand-off (1 s)
   * @param retryMax backoff cap (5 min)
   * @param redispatchAfter a DISPATCHED row not SENT after this long is handed over again ({@code
   *     PAYRELAY_DISPATCH_REDISPATCH_SECONDS}, 600: longer than the default publish retry budget of
   *     about 6 minutes, so it catches lost workflows, not slow ones)
   * @param handoffs how many payments' events are handed to Temporal at once ({@code
   *     PAYRELAY_DISPATCH_HANDOFFS}, 16, at least 1): each hand-off is one signalWithStart round
   *     trip, so one at a time caps delivery at the inverse of Temporal's latency
   */
  public record DispatcherSettings(
      int batchSize,
      Duration lease,
      Duration idlePollMax,
      Duration retryInitial,
      Duration retryMax,
      Duration redispatchAfter,
      int handoffs) {

    /**
     * The shortest {@code PAYRELAY_DISPATCH_LEASE_SECONDS}: its third, the hand-off deadline, plus
     * the one retry backoff the Temporal SDK may still sleep after it ({@link
     * LeaseDeadline#SDK_BACKOFF_OVERRUN}, 6 s) leaves at least 4 s of the lease to write back.
     */
    public static final int MIN_LEASE_SECONDS = 15;

    /**
     * The longest {@code PAYRELAY_DISPATCH_LEASE_SECONDS}: the lease is also how long the rows of a
     * dispatcher that died (and is not restarted under its name) wait for another one.
     */
    public static final int MAX_LEASE_SECONDS = 3_600;
  }

  /**
   * The worker's outbox housekeeping.
   *
   * @param sentRetention SENT rows whose broker confirm is older than this are purged ({@code
   *     PAYRELAY_OUTBOX_RETENTION_DAYS}, 7, at least 1); PENDING, DISPATCHED and DEAD rows never
   *     are
   * @param purgeBatch rows deleted per statement ({@code PAYRELAY_OUTBOX_PURGE_BATCH}, 500, at
   *     least 1)
   * @param purgeEvery pause between purge runs (10 min)
   * @param statisticsEvery pause between refreshes of the outbox gauges (5 s)
   */
  public record OutboxMaintenanceSettings(
      Duration sentRetention, int purgeBatch, Duration purgeEvery, Duration statisticsEvery) {}

  /**
   * Reads the configuration from an environment map.
   *
   * @throws IllegalArgumentException naming the variable whose value is malformed
   */
  public static PayrelayConfig fromEnv(Map<String, String> env) {
    Env e = new Env(env);
    Map<String, String> values = env;
    String apiHost = e.text("PAYRELAY_API_HOST", "127.0.0.1");
    int apiPort = e.integer("PAYRELAY_API_PORT", 8080);
    int sandboxPort = e.integer("PAYRELAY_SANDBOX_PORT", 8090);
    // The local dev server's UI, and so the codec endpoint's default CORS origins.
    int uiPort = e.integer("PAYRELAY_TEMPORAL_UI_PORT", 8233);
    Duration outboxRetention = Duration.ofDays(e.positive("PAYRELAY_OUTBOX_RETENTION_DAYS", 7));
    URI publicUrl = URI.create(e.text("PAYRELAY_PUBLIC_URL", "http://" + apiHost + ":" + apiPort));
    SandboxSettings sandbox = sandbox(e, sandboxPort);
    StripeSettings stripe = StripeSettings.fromEnv(env, publicUrl);
    AlipaySettings alipay = AlipaySettings.fromEnv(env);
    WechatPaySettings wechatpay = WechatPaySettings.fromEnv(env);
    List<ChannelAccountSettings> accounts =
        channelAccounts(
            e, sandbox.merchantId(), stripe.accountId(), alipay.appId(), wechatpay.mchId());
    return new PayrelayConfig(
        new DatabaseConfig(
            e.text("PAYRELAY_DB_URL", "jdbc:mysql://127.0.0.1:3306/payrelay"),
            e.text("PAYRELAY_DB_USER", "root"),
            e.text("PAYRELAY_DB_PASSWORD", ""),
            e.positive("PAYRELAY_DB_POOL", 10)),
        sizing(e),
        new AmqpSettings(
            e.text("PAYRELAY_AMQP_URI", "amqp://guest:guest@127.0.0.1:5672/%2f"),
            e.text("PAYRELAY_AMQP_EXCHANGE", "payrelay.events"),
            Duration.ofMillis(e.integer("PAYRELAY_AMQP_CONFIRM_TIMEOUT_MS", 5000)),
            queues(values.getOrDefault("PAYRELAY_AMQP_QUEUES", DEFAULT_QUEUES)),
            publishRetries(e.text("PAYRELAY_PUBLISH_RETRY", ""))),
        new TemporalSettings(
            e.text("PAYRELAY_TEMPORAL_ADDRESS", null),
            e.text("PAYRELAY_TEMPORAL_NAMESPACE", "default"),
            new LocalTemporal(
                e.text("PAYRELAY_TEMPORAL_CLI", "temporal"),
                e.integer("PAYRELAY_TEMPORAL_PORT", 7233),
                uiPort,
                Path.of(e.text("PAYRELAY_DATA_DIR", ".payrelay")),
                "true".equalsIgnoreCase(e.text("PAYRELAY_TEMPORAL_IN_MEMORY", "false"))),
            new ChannelQueryPolicy(
                e.integer("PAYRELAY_QUERY_GRACE_SECONDS", 30) * 1_000L,
                e.integer("PAYRELAY_QUERY_INITIAL_SECONDS", 30) * 1_000L,
                e.integer("PAYRELAY_QUERY_MAX_SECONDS", 600) * 1_000L),
            !"false".equalsIgnoreCase(e.text("PAYRELAY_RECONCILIATION_DAILY", "true")),
            Duration.ofSeconds(e.integer("PAYRELAY_EXPIRY_SWEEP_SECONDS", 300)),
            Duration.ofSeconds(e.integer("PAYRELAY_EXPIRY_SWEEP_GRACE_SECONDS", 300)),
            Duration.ofSeconds(e.integer("PAYRELAY_GRANT_REPAIR_SECONDS", 15)),
            Duration.ofSeconds(e.integer("PAYRELAY_GRANT_REPAIR_AFTER_SECONDS", 30)),
            TemporalSecurity.fromEnv(env, uiPort),
            compression(e.text("PAYRELAY_TEMPORAL_COMPRESSION", "none"))),
        new ApiSettings(
            apiHost,
            apiPort,
            publicUrl,
            Duration.ofSeconds(
                e.between(
                    "PAYRELAY_PAYMENT_TTL_SECONDS",
                    1800,
                    1,
                    (int) dev.payrelay.ledger.payment.PaymentDeadlines.MAX_EXTENSION.toSeconds())),
            e.integer("PAYRELAY_WEBHOOK_MAX_BYTES", 65_536),
            Duration.ofSeconds(
                e.between(
                    "PAYRELAY_API_LOCK_WAIT_SECONDS",
                    ApiSettings.DEFAULT_LOCK_WAIT_SECONDS,
                    1,
                    ApiSettings.MAX_LOCK_WAIT_SECONDS)),
            httpLimits(e)),
        sandbox.withAccounts(ofChannel(accounts, "sandbox")),
        new DispatcherSettings(
            e.integer("PAYRELAY_DISPATCH_BATCH", 50),
            Duration.ofSeconds(
                e.between(
                    "PAYRELAY_DISPATCH_LEASE_SECONDS",
                    30,
                    DispatcherSettings.MIN_LEASE_SECONDS,
                    DispatcherSettings.MAX_LEASE_SECONDS)),
            Duration.ofMillis(e.integer("PAYRELAY_DISPATCH_POLL_MAX_MS", 1000)),
            Duration.ofSeconds(1),
            Duration.ofMinutes(5),
            Duration.ofSeconds(e.integer("PAYRELAY_DISPATCH_REDISPATCH_SECONDS", 600)),
            e.positive("PAYRELAY_DISPATCH_HANDOFFS", 16)),
        new OutboxMaintenanceSettings(
            outboxRetention,
            e.positive("PAYRELAY_OUTBOX_PURGE_BATCH", 500),
            Duration.ofMinutes(10),
            Duration.ofSeconds(5)),
        inboxRetention(e),
        CrashPoints.parse(e.text("PAYRELAY_CRASH_AT", null)),
        access(e, apiPort, Path.of(e.text("PAYRELAY_DATA_DIR", ".payrelay"))),
        Profile.parse(e.text("PAYRELAY_PROFILE", null)),
        OperationsSettings.fromEnv(env),
        ConsumersSettings.fromEnv(env, outboxRetention),
        stripe.withAccounts(ofChannel(accounts, "stripe")),
        alipay.withAccounts(ofChannel(accounts, "alipay")),
        wechatpay.withAccounts(ofChannel(accounts, "wechatpay")));
  }

  /**
   * The tenant accounts of {@code PAYRELAY_CHANNEL_ACCOUNTS_FILE} ({@link ChannelAccountsFile}),
   * none may reuse a channel's default merchant id (the sandbox's, Stripe's account, Alipay's app,
   * WeChat Pay's mchid); empty when unset.
   */
  private static List<ChannelAccountSettings> channelAccounts(
      Env e, String sandbox, String stripe, String alipay, String wechatpay) {
    String file = e.text(ChannelAccountsFile.VARIABLE, null);
    if (file == null) {
      return List.of();
    }
    Map<String, String> defaults = new java.util.HashMap<>();
    defaults.put("sandbox", sandbox);
    java.util.Optional.ofNullable(stripe).ifPresent(id -> defaults.put("stripe", id));
    java.util.Optional.ofNullable(alipay).ifPresent(id -> defaults.put("alipay", id));
    java.util.Optional.ofNullable(wechatpay).ifPresent(id -> defaults.put("wechatpay", id));
    return ChannelAccountsFile.read(Path.of(file), e.values(), defaults);
  }

  private static List<ChannelAccountSettings> ofChannel(
      List<ChannelAccountSettings> accounts, String channel) {
    return accounts.stream().filter(a -> a.channel().equals(channel)).toList();
  }

  private static AccessSettings access(Env e, int apiPort, Path dataDir) {
    ApiKeys keys = ApiKeys.parse(e.text("PAYRELAY_API_KEYS", ""), "PAYRELAY_API_KEYS");
    String keysFile = e.text("PAYRELAY_API_KEYS_FILE", null);
    if (keysFile != null) {
      keys = keys.and(ApiKeys.parse(read(keysFile, "PAYRELAY_API_KEYS_FILE"), keysFile));
    }
    String adminPortText = e.text("PAYRELAY_ADMIN_PORT", null);
    Integer adminPort = adminPortText == null ? null : e.integer("PAYRELAY_ADMIN_PORT", 0);
    URI adminUrl =
        URI.create(
            e.text(
                "PAYRELAY_ADMIN_URL",
                "http://127.0.0.1:" + (adminPort == null ? apiPort : adminPort)));
    String clientKey = e.text("PAYRELAY_API_KEY", null);
    String clientKeySource = clientKey == null ? null : "PAYRELAY_API_KEY";
    String clientKeyFile = e.text("PAYRELAY_API_KEY_FILE", null);
    if (clientKey == null && clientKeyFile != null) {
      clientKey =
          read(clientKeyFile, "PAYRELAY_API_KEY_FILE").strip().lines().findFirst().orElse(null);
      clientKeySource = "PAYRELAY_API_KEY_FILE " + clientKeyFile;
    }
    Path devKey = dataDir.resolve(AccessSettings.DEV_KEY_FILE);
    if (clientKey == null && Files.isReadable(devKey)) {
      clientKey = read(devKey.toString(), "the dev key file").strip();
      clientKeySource = "dev's key file " + devKey;
    }
    String codecAuth = e.text("PAYRELAY_CODEC_AUTH", "key");
    if (!codecAuth.equals("key") && !codecAuth.equals("open")) {
      throw new IllegalArgumentException(
          "PAYRELAY_CODEC_AUTH must be key or open, got: " + codecAuth);
    }
    return new AccessSettings(
        keys,
        e.text("PAYRELAY_ADMIN_HOST", "127.0.0.1"),
        adminPort,
        adminUrl,
        clientKey,
        clientKeySource,
        codecAuth.equals("open"),
        SignalTokenSettings.fromEnv(
            e.values(), e.between("PAYRELAY_SIGNAL_TOKEN_TTL_SECONDS", 900, 30, 86_400)));
  }

  /** A file's text, or an error naming the setting that pointed at it. */
  private static String read(String file, String setting) {
    try {
      return Files.readString(Path.of(file));
    } catch (java.io.IOException | RuntimeException ex) {
      throw new IllegalArgumentException(setting + ": cannot read " + file + ": " + ex, ex);
    }
  }

  private static SandboxSettings sandbox(Env e, int port) {
    String merchantId = e.text("PAYRELAY_SANDBOX_MERCHANT_ID", "m_payrelay_dev");
    String secretFile = e.text("PAYRELAY_SANDBOX_SECRET_FILE", null);
    String secret = e.text("PAYRELAY_SANDBOX_SECRET", "sandbox-dev-secret-change-me");
    if (secretFile != null) {
      if (e.text("PAYRELAY_SANDBOX_SECRET", null) != null) {
        throw new IllegalArgumentException(
            "set PAYRELAY_SANDBOX_SECRET or PAYRELAY_SANDBOX_SECRET_FILE, not both");
      }
      secret = ChannelAccountsFile.readSecret(Path.of(secretFile));
      if (secret == null || secret.isEmpty()) {
        throw new IllegalArgumentException(
            "PAYRELAY_SANDBOX_SECRET_FILE " + secretFile + " is missing, unreadable or empty");
      }
    }
    return new SandboxSettings(
        e.flag("PAYRELAY_SANDBOX_ENABLED", true),
        URI.create(e.text("PAYRELAY_SANDBOX_URL", "http://127.0.0.1:" + port)),
        e.text("PAYRELAY_SANDBOX_BIND", "127.0.0.1"),
        port,
        merchantId,
        secret,
        Duration.ofSeconds(e.integer("PAYRELAY_SANDBOX_TOLERANCE_SECONDS", 300)),
        secretFile != null ? "PAYRELAY_SANDBOX_SECRET_FILE" : "PAYRELAY_SANDBOX_SECRET",
        List.of());
  }

  private static InboxRetentionSettings inboxRetention(Env e) {
    return new InboxRetentionSettings(
        e.between(
            "PAYRELAY_INBOX_REJECTED_BODY_BYTES",
            InboxRetentionSettings.DEFAULT_REJECTED_BODY_BYTES,
            0,
            dev.payrelay.ledger.inbox.WebhookInboxStore.MAX_REJECTED_BODY_BYTES),
        Duration.ofDays(
            e.between(
                "PAYRELAY_INBOX_REJECTED_RETENTION_DAYS",
                InboxRetentionSettings.DEFAULT_REJECTED_DAYS,
                1,
                3650)),
        Duration.ofDays(
            e.between(
                "PAYRELAY_INBOX_RETENTION_DAYS",
                InboxRetentionSettings.DEFAULT_DECIDED_DAYS,
                1,
                36500)),
        e.between(
            "PAYRELAY_INBOX_PURGE_BATCH", InboxRetentionSettings.DEFAULT_PURGE_BATCH, 1, 10000),
        Duration.ofMinutes(10));
  }

  /** The API's {@link HttpLimits}: each variable refused, named, outside that record's bounds. */
  private static HttpLimits httpLimits(Env e) {
    HttpLimits d = HttpLimits.DEFAULTS;
    int connections =
        e.between(
            "PAYRELAY_API_MAX_CONNECTIONS",
            d.connections(),
            HttpLimits.MIN_CONNECTIONS,
            HttpLimits.MAX_COUNT);
    return new HttpLimits(
        Duration.ofSeconds(
            e.between(
                "PAYRELAY_API_HEADER_TIMEOUT_SECONDS",
                (int) d.headerTimeout().toSeconds(),
                HttpLimits.MIN_SECONDS,
                HttpLimits.MAX_HEADER_SECONDS)),
        Duration.ofSeconds(
            e.between(
                "PAYRELAY_API_BODY_GRACE_SECONDS",
                (int) d.bodyGrace().toSeconds(),
                HttpLimits.MIN_SECONDS,
                HttpLimits.MAX_GRACE_SECONDS)),
        e.between(
            "PAYRELAY_API_BODY_MIN_BYTES_PER_SECOND",
            d.bodyMinRate(),
            HttpLimits.MIN_RATE,
            HttpLimits.MAX_RATE),
        e.between("PAYRELAY_API_MAX_WEBHOOK_READS", d.webhookReads(), 1, HttpLimits.MAX_COUNT),
        connections,
        e.between(
            "PAYRELAY_API_MAX_CONNECTIONS_PER_CLIENT",
            Math.min(d.connectionsPerClient(), connections),
            0,
            connections),
        e.between("PAYRELAY_API_ACCEPT_QUEUE", d.acceptQueue(), 1, HttpLimits.MAX_ACCEPT_QUEUE));
  }

  /** The pool sizes, each defaulting to {@code PAYRELAY_DB_POOL} when that is set. */
  private static Sizing sizing(Env e) {
    boolean shared = e.text("PAYRELAY_DB_POOL", null) != null;
    int sharedPool = e.positive("PAYRELAY_DB_POOL", 1);
    return new Sizing(
        e.integer("PAYRELAY_DB_POOL_API", shared ? sharedPool : Sizing.DEFAULT_API_POOL),
        e.integer("PAYRELAY_DB_POOL_WORKER", shared ? sharedPool : Sizing.DEFAULT_WORKER_POOL),
        e.integer("PAYRELAY_WORKFLOW_CACHE", Sizing.DEFAULT_WORKFLOW_CACHE));
  }

  private static final String DEFAULT_QUEUES =
      AmqpTopology.DEMO_PAYMENT_EVENTS.queue()
          + "="
          + AmqpTopology.DEMO_PAYMENT_EVENTS.routingKeyPattern();

  private static Map<String, PublishRetryPolicy> publishRetries(String spec) {
    Map<String, PublishRetryPolicy> policies = new HashMap<>();
    for (String item : spec.split(",")) {
      if (item.isBlank()) {
        continue;
      }
      String[] parts = item.trim().split("=", 2);
      if (parts.length != 2 || parts[0].isBlank()) {
        throw new IllegalArgumentException(
            "PAYRELAY_PUBLISH_RETRY must be Type=initial/maxInterval/maxAttempts[,...], got: "
                + spec);
      }
      policies.put(parts[0].trim(), PublishRetryPolicy.parse(parts[1]));
    }
    return policies;
  }

  private static List<QueueBinding> queues(String spec) {
    List<QueueBinding> queues = new ArrayList<>();
    for (String item : spec.split(",")) {
      if (item.isBlank()) {
        continue;
      }
      String[] parts = item.trim().split("=", 2);
      if (parts.length != 2 || parts[0].isBlank() || parts[1].isBlank()) {
        throw new IllegalArgumentException(
            "PAYRELAY_AMQP_QUEUES must be queue=pattern[,queue=pattern...], got: " + spec);
      }
      queues.add(new QueueBinding(parts[0].trim(), parts[1].trim()));
    }
    return queues;
  }

  private static GrpcCompression compression(String value) {
    return switch (value.toLowerCase(Locale.ROOT)) {
      case "none" -> GrpcCompression.NONE;
      case "gzip" -> GrpcCompression.GZIP;
      default ->
          throw new IllegalArgumentException(
              "PAYRELAY_TEMPORAL_COMPRESSION must be none or gzip, got: " + value);
    };
  }

  private record Env(Map<String, String> values) {
    String text(String name, String fallback) {
      String v = values.get(name);
      return v == null || v.isBlank() ? fallback : v.trim();
    }

    int integer(String name, int fallback) {
      String v = text(name, null);
      try {
        return v == null ? fallback : Integer.parseInt(v);
      } catch (NumberFormatException ex) {
        throw new IllegalArgumentException(name + " must be an integer, got: " + v, ex);
      }
    }

    /** {@code true} or {@code false} (any case); anything else is refused naming the variable. */
    boolean flag(String name, boolean fallback) {
      String v = text(name, null);
      if (v == null) {
        return fallback;
      }
      if (!v.equalsIgnoreCase("true") && !v.equalsIgnoreCase("false")) {
        throw new IllegalArgumentException(name + " must be true or false, got: " + v);
      }
      return v.equalsIgnoreCase("true");
    }

    int positive(String name, int fallback) {
      int v = integer(name, fallback);
      if (v < 1) {
        throw new IllegalArgumentException(name + " must be at least 1, got: " + v);
      }
      return v;
    }

    /** {@link #integer}, refused with the variable named outside {@code min..max}. */
    int between(String name, int fallback, int min, int max) {
      int v = integer(name, fallback);
      if (v < min || v > max) {
        throw new IllegalArgumentException(
            name + " must be from " + min + " to " + max + ", got: " + v);
      }
      return v;
    }
  }
}

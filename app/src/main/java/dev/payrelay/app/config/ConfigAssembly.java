package dev.payrelay.app.config;

import dev.payrelay.amqp.QueueBinding;
import dev.payrelay.api.http.CodecEndpoint;
import dev.payrelay.api.http.HttpLimits;
import dev.payrelay.app.config.PayrelayConfig.AmqpSettings;
import dev.payrelay.app.config.PayrelayConfig.ApiSettings;
import dev.payrelay.app.config.PayrelayConfig.DispatcherSettings;
import dev.payrelay.app.config.PayrelayConfig.LocalTemporal;
import dev.payrelay.app.config.PayrelayConfig.OutboxMaintenanceSettings;
import dev.payrelay.app.config.PayrelayConfig.SandboxSettings;
import dev.payrelay.app.config.PayrelayConfig.TemporalSettings;
import dev.payrelay.app.config.binder.Binding;
import dev.payrelay.app.config.binder.ConfigProblems;
import dev.payrelay.app.config.binder.Syntax;
import dev.payrelay.app.config.mapping.AccessMapping;
import dev.payrelay.app.config.mapping.ChannelMapping;
import dev.payrelay.app.config.mapping.JobsMapping;
import dev.payrelay.app.config.mapping.PayrelayMapping;
import dev.payrelay.domain.crash.CrashPoints;
import dev.payrelay.ledger.db.DatabaseConfig;
import dev.payrelay.workflows.ChannelQueryPolicy;
import dev.payrelay.workflows.PublishRetryPolicy;
import dev.payrelay.workflows.RefundQueryPolicy;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Builds {@link PayrelayConfig}'s records from a checked {@link Binding}: the settings that follow
 * from others (the public URL from the API's address, the pools from {@code PAYRELAY_DB_POOL}), the
 * rules that span settings, the files settings name. Each section is built on its own, so a start
 * refuses every broken one at once ({@link ConfigProblems}), not only the first.
 */
final class ConfigAssembly {

  private final Binding binding;
  private final PayrelayMapping m;
  private final List<String> problems = new ArrayList<>();

  private ConfigAssembly(Binding binding) {
    this.binding = binding;
    this.m = binding.mapping();
  }

  /**
   * The configuration of {@code binding}.
   *
   * @throws ConfigProblems listing every section that could not be built, each naming its setting
   */
  static PayrelayConfig assemble(Binding binding) {
    return new ConfigAssembly(binding).build();
  }

  private PayrelayConfig build() {
    URI publicUrl =
        m.publicUrl()
            .orElseGet(() -> URI.create("http://" + m.api().host() + ":" + m.api().port()));
    SandboxSettings sandbox = section(this::sandbox);
    StripeSettings stripe = section(() -> StripeSettings.from(m.stripe(), publicUrl));
    AlipaySettings alipay = section(() -> AlipaySettings.from(m.alipay()));
    WechatPaySettings wechatpay = section(() -> WechatPaySettings.from(m.wechatpay()));
    ChannelAccounts accounts =
        section(() -> ChannelAccounts.read(m, binding.env(), sandbox, stripe, alipay, wechatpay));
    TemporalSettings temporal = section(this::temporal);
    Profile profile = m.profile().orElse(Profile.AUTO);
    // The local dev server (no address, from any source) outside production: see AccessAssembly.
    boolean localDevServer =
        temporal != null && temporal.address() == null && !profile.isProduction(null);
    Sizing sizing = section(this::sizing);
    PayrelayConfig config =
        new PayrelayConfig(
            section(this::database),
            sizing,
            section(this::amqp),
            temporal,
            section(() -> api(publicUrl)),
            sandbox,
            section(() -> dispatcher(m.dispatch(), sizing)),
            section(this::outbox),
            section(this::inbox),
            section(() -> CrashPoints.parse(m.crashAt().orElse(null))),
            section(() -> AccessAssembly.access(m, localDevServer)),
            profile,
            OperationsSettings.from(m),
            section(
                () ->
                    ConsumersSettings.from(
                        m.consumer(), m.refund(), m.db().poolConsumer(), m.outbox().retention())),
            stripe,
            alipay,
            wechatpay);
    if (!problems.isEmpty()) {
      throw new ConfigProblems(problems);
    }
    return accounts.applyTo(config);
  }

  /** {@code part}'s value, or null with its refusals noted when it cannot be built. */
  private <T> T section(Supplier<T> part) {
    try {
      return part.get();
    } catch (ConfigProblems e) {
      problems.addAll(e.problems());
    } catch (IllegalArgumentException e) {
      problems.add(e.getMessage());
    }
    return null;
  }

  private DatabaseConfig database() {
    var db = m.db();
    return new DatabaseConfig(db.url(), db.user(), db.password().orElse(""), db.pool().orElse(10));
  }

  /** The pool sizes, each defaulting to {@code PAYRELAY_DB_POOL} when that is set. */
  private Sizing sizing() {
    var db = m.db();
    return new Sizing(
        db.poolApi().or(db::pool).orElse(Sizing.DEFAULT_API_POOL),
        db.poolWorker().or(db::pool).orElse(Sizing.DEFAULT_WORKER_POOL),
        m.workflowCache());
  }

  private AmqpSettings amqp() {
    var a = m.amqp();
    return new AmqpSettings(
        a.uri(),
        a.exchange(),
        a.confirmTimeout(),
        queues(a.queues()),
        publishRetries(m.publishRetry().orElse("")));
  }

  private TemporalSettings temporal() {
    TemporalClientConfig client = TemporalClientConfig.resolve(binding);
    var t = m.temporal();
    var q = m.query();
    if (q.max().compareTo(q.initial()) < 0) {
      throw new IllegalArgumentException(
          "PAYRELAY_QUERY_MAX ("
              + Syntax.formatDuration(q.max())
              + ") must be at least PAYRELAY_QUERY_INITIAL ("
              + Syntax.formatDuration(q.initial())
              + ")");
    }
    TemporalSecurity security = TemporalSecurity.from(client, m);
    // The codec endpoint is on the admin listener when there is one, as every admin route is.
    URI codec =
        security.payloadCodec().isEmpty()
            ? null
            : URI.create(
                "http://127.0.0.1:" + m.admin().port().orElse(m.api().port()) + CodecEndpoint.PATH);
    LocalTemporal local =
        new LocalTemporal(t.cli(), t.port(), t.uiPort(), m.dataDir(), t.inMemory(), codec);
    boolean localUi = client.address() == null && !t.inMemory();
    return new TemporalSettings(
        client.address(),
        client.namespace(),
        local,
        new ChannelQueryPolicy(q.grace().toMillis(), q.initial().toMillis(), q.max().toMillis()),
        refundQueries(),
        m.reconciliationDaily(),
        m.expiry().sweep(),
        m.expiry().sweepGrace(),
        m.grant().repair(),
        m.grant().repairAfter(),
        security,
        t.compression(),
        client.sources().get("address"),
        t.uiUrl().orElse(localUi ? local.uiUrl() : null));
  }

  /** PAYRELAY_REFUND_QUERY_INITIAL/MAX and PAYRELAY_REFUND_ATTENTION_AFTER, checked together. */
  private RefundQueryPolicy refundQueries() {
    var r = m.refund();
    if (r.query().max().compareTo(r.query().initial()) < 0) {
      throw new IllegalArgumentException(
          "PAYRELAY_REFUND_QUERY_MAX ("
              + Syntax.formatDuration(r.query().max())
              + ") must be at least PAYRELAY_REFUND_QUERY_INITIAL ("
              + Syntax.formatDuration(r.query().initial())
              + ")");
    }
    return new RefundQueryPolicy(
        r.query().initial().toMillis(), r.query().max().toMillis(), r.attentionAfter().toMillis());
  }

  private ApiSettings api(URI publicUrl) {
    var a = m.api();
    return new ApiSettings(
        a.host(),
        a.port(),
        publicUrl,
        m.paymentTtl(),
        m.webhookMaxSize().intBytes(),
        a.lockWait(),
        httpLimits(a));
  }

  /** The API's {@link HttpLimits}; the per-client cap is at most the total. */
  private static HttpLimits httpLimits(AccessMapping.Api a) {
    int connections = a.maxConnections();
    int perClient =
        a.maxConnectionsPerClient()
            .orElse(Math.min(HttpLimits.DEFAULTS.connectionsPerClient(), connections));
    if (perClient > connections) {
      throw new IllegalArgumentException(
          "PAYRELAY_API_MAX_CONNECTIONS_PER_CLIENT must be from 0 to "
              + connections
              + ", got: "
              + perClient);
    }
    return new HttpLimits(
        a.headerTimeout(),
        a.bodyGrace(),
        a.bodyMinRate().intBytes(),
        a.maxWebhookReads(),
        connections,
        perClient,
        a.acceptQueue());
  }

  private SandboxSettings sandbox() {
    ChannelMapping.Sandbox s = m.sandbox();
    String secret = SecretSetting.read("PAYRELAY_SANDBOX_SECRET", s.secret(), s.secretFile());
    return new SandboxSettings(
        s.enabled(),
        s.url().orElseGet(() -> URI.create("http://127.0.0.1:" + s.port())),
        s.bind(),
        s.port(),
        s.merchantId(),
        secret == null ? ProductionChecks.DEFAULT_SECRET : secret,
        s.tolerance(),
        s.secretFile().isPresent() ? "PAYRELAY_SANDBOX_SECRET_FILE" : "PAYRELAY_SANDBOX_SECRET",
        List.of());
  }

  /**
   * The dispatcher's settings; its hand-off window defaults to twice the payment workflow task
   * slots, so the task queue holds one task per slot waiting behind each running one (and 1 when
   * the sizing itself was refused, which the config's problems then report).
   */
  private static DispatcherSettings dispatcher(JobsMapping.Dispatch d, Sizing sizing) {
    int window = d.window().orElse(sizing == null ? 1 : 2 * sizing.paymentWorkflowTaskSlots());
    return new DispatcherSettings(
        d.batch(),
        d.lease(),
        d.pollMax(),
        Duration.ofSeconds(1),
        Duration.ofMinutes(5),
        d.redispatch(),
        d.handoffs(),
        window);
  }

  private OutboxMaintenanceSettings outbox() {
    return new OutboxMaintenanceSettings(
        m.outbox().retention(),
        m.outbox().purgeBatch(),
        Duration.ofMinutes(10),
        Duration.ofSeconds(5));
  }

  private InboxRetentionSettings inbox() {
    JobsMapping.Inbox i = m.inbox();
    return new InboxRetentionSettings(
        i.rejectedBodySize().intBytes(),
        i.rejectedRetention(),
        i.retention(),
        i.purgeBatch(),
        Duration.ofMinutes(10));
  }

  /** {@code queue=pattern,...}, or {@code none} for none. */
  private static List<QueueBinding> queues(String spec) {
    List<QueueBinding> queues = new ArrayList<>();
    if (spec.trim().equalsIgnoreCase("none")) {
      return queues;
    }
    for (String item : spec.split(",")) {
      String[] parts = item.trim().split("=", 2);
      if (parts.length != 2 || parts[0].isBlank() || parts[1].isBlank()) {
        throw new IllegalArgumentException(
            "PAYRELAY_AMQP_QUEUES must be queue=pattern[,queue=pattern...] or none, got: " + spec);
      }
      queues.add(new QueueBinding(parts[0].trim(), parts[1].trim()));
    }
    return queues;
  }

  /** {@code Type=initial/maxInterval/maxAttempts,...}, {@code *} for the rest. */
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
      policies.put(parts[0].trim(), publishRetry(parts[0].trim(), parts[1]));
    }
    return policies;
  }

  /** {@code initial/maxInterval/maxAttempts}, the two delays in the duration syntax. */
  private static PublishRetryPolicy publishRetry(String type, String spec) {
    String[] parts = spec.trim().split("/");
    try {
      if (parts.length != 3) {
        throw new IllegalArgumentException("must be initial/maxInterval/maxAttempts");
      }
      return new PublishRetryPolicy(
          Syntax.duration(parts[0]).toMillis(),
          Syntax.duration(parts[1]).toMillis(),
          Syntax.integer(parts[2]));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "PAYRELAY_PUBLISH_RETRY "
              + type
              + "="
              + spec.trim()
              + ": "
              + e.getMessage()
              + " (e.g. "
              + type
              + "=1s/60s/12)",
          e);
    }
  }
}

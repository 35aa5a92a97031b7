package dev.payrelay.devstack;

import dev.payrelay.amqp.QueueBinding;
import dev.payrelay.api.ApiKeys;
import dev.payrelay.api.auth.ApiKey;
import dev.payrelay.api.auth.Role;
import dev.payrelay.api.health.Readiness;
import dev.payrelay.api.http.ApiServer;
import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.config.PayrelayConfig.AccessSettings;
import dev.payrelay.app.config.Preflight;
import dev.payrelay.app.config.PrivateFiles;
import dev.payrelay.app.runtime.ApiRuntime;
import dev.payrelay.app.runtime.ProcessMetrics;
import dev.payrelay.app.runtime.ProcessReadiness;
import dev.payrelay.app.runtime.Services;
import dev.payrelay.app.runtime.WorkerRuntime;
import dev.payrelay.app.temporal.TemporalConnection;
import dev.payrelay.ledger.db.Database;
import dev.payrelay.ledger.outbox.ClaimedEvent;
import dev.payrelay.simulators.sandbox.SandboxSimulator;
import dev.payrelay.simulators.sandbox.SandboxSimulatorConfig;
import dev.payrelay.workflows.WorkflowIds;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.PrintStream;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Everything {@code payrelay dev} runs: migrated database, Temporal (the CLI's dev server as a
 * child process with its Web UI, or {@code PAYRELAY_TEMPORAL_ADDRESS}, or on request the in-memory
 * Java test server), the worker with its dispatcher, the API, the sandbox channel simulator and,
 * for Stripe, Alipay and WeChat Pay without credentials, their simulators ({@link
 * ChannelSimulators}). The API and the worker each get their own pool ({@link
 * PayrelayConfig#apiDatabase()}, {@link PayrelayConfig#workerDatabase()}), as separate processes
 * would, so a burst of callbacks never starves delivery; both pools report to the one {@code
 * /metrics}.
 */
public final class DevStack implements AutoCloseable {

  private final Services services;
  private final Services workerServices;
  private final TemporalConnection temporal;
  private final SandboxSimulator sandbox;
  private final ChannelSimulators simulators;
  private final WorkerRuntime worker;
  private final ApiServer api;
  private final Readiness readiness;
  private final PayrelayConfig config;
  private final ProcessMetrics metrics;

  private DevStack(
      Services services,
      Services workerServices,
      TemporalConnection temporal,
      SandboxSimulator sandbox,
      ChannelSimulators simulators,
      WorkerRuntime worker,
      ApiServer api,
      Readiness readiness,
      PayrelayConfig config,
      ProcessMetrics metrics) {
    this.services = services;
    this.workerServices = workerServices;
    this.temporal = temporal;
    this.sandbox = sandbox;
    this.simulators = simulators;
    this.worker = worker;
    this.api = api;
    this.readiness = readiness;
    this.config = config;
    this.metrics = metrics;
  }

  /**
   * Starts the stack; prints where each part listens.
   *
   * @throws IllegalStateException if MySQL/MariaDB or RabbitMQ is not reachable (one line saying
   *     how to start it)
   */
  public static DevStack start(PayrelayConfig configured, PrintStream out) {
    Preflight.check(configured);
    // Channels without credentials: simulators, and the configuration pointing at them.
    ChannelSimulators simulators = ChannelSimulators.start(configured);
    try {
      return start(simulators, out);
    } catch (RuntimeException e) {
      simulators.close();
      throw e;
    }
  }

  private static DevStack start(ChannelSimulators simulators, PrintStream out) {
    PayrelayConfig config = simulators.config();
    Database.createIfMissing(config.database());
    ProcessMetrics processMetrics = ProcessMetrics.start();
    PrometheusMeterRegistry metrics = processMetrics.registry();
    Services workerServices = Services.open(config.workerDatabase(), metrics, config.crashPoints());
    Services services;
    try {
      services = Services.open(config.apiDatabase(), metrics, config.crashPoints());
    } catch (RuntimeException e) {
      workerServices.close();
      throw e;
    }
    int migrations = workerServices.database().migrate();
    out.printf(
        "database   %s (%d migration(s) applied; pools %s %d, %s %d)%n",
        config.database().jdbcUrl(),
        migrations,
        services.database().poolName(),
        services.database().maxPoolSize(),
        workerServices.database().poolName(),
        workerServices.database().maxPoolSize());
    TemporalConnection temporal = TemporalConnection.open(config.temporal(), metrics);
    printTemporal(config.temporal(), temporal.kind(), out);
    SandboxSimulator sandbox = startSandbox(config);
    out.printf("sandbox    %s (merchant %s)%n", sandbox.baseUrl(), merchants(config.sandbox()));
    printChannels(config, simulators, out);
    WorkerRuntime worker =
        WorkerRuntime.start(
            config,
            workerServices,
            temporal,
            "dev",
            event -> printLink(config.temporal(), event, out));
    for (QueueBinding q : config.amqp().queues()) {
      out.printf(
          "rabbitmq   %s exchange %s, queue %s bound %s%n",
          WorkerRuntime.redact(config.amqp().uri()),
          config.amqp().exchange(),
          q.queue(),
          q.routingKeyPattern());
    }
    if (config.consumers().notifications()) {
      var consumer = config.consumers().notificationsConsumer();
      out.printf(
          "consumer   %s on %s bound %s (quarantine %s)%n",
          consumer.name(),
          consumer.queues().work(),
          String.join(",", consumer.bindings()),
          consumer.queues().quarantine());
    }
    ApiKeys keys = config.access().keys();
    if (keys.isEmpty()) {
      Path file = config.temporal().local().dataDir().resolve(AccessSettings.DEV_KEY_FILE);
      keys = ApiKeys.of(List.of(devKey(file).key()));
      out.printf(
          "api key    %s (admin, every tenant, operator dev; the CLI reads it; set"
              + " PAYRELAY_API_KEYS to use your own)%n",
          file.toAbsolutePath().normalize());
    }
    // dev is api and worker in one: ready while the database, the broker and Temporal answer.
    Readiness readiness = ProcessReadiness.worker(config, services, temporal, "dev");
    ApiServer api =
        ApiRuntime.start(
            config, services, keys, temporal.client(), worker::wakeDispatcher, readiness);
    out.printf(
        "api        http://%s:%d  (webhook %s)%n",
        config.api().host(), api.port(), config.api().webhookUrl("sandbox"));
    if (config.access().adminPort() != null) {
      out.printf("admin api  http://%s:%d%n", config.access().adminHost(), api.adminPort());
    }
    return new DevStack(
        services,
        workerServices,
        temporal,
        sandbox,
        simulators,
        worker,
        api,
        readiness,
        config,
        processMetrics);
  }

  /**
   * dev's own API key: the one kept in {@code file} (owner-only, in an owner-only folder: {@link
   * PrivateFiles}), or a new one written there, so the CLI in another terminal and later runs of
   * dev share it.
   */
  public static ApiKeys.Issued devKey(Path file) {
    try {
      if (Files.isReadable(file)) {
        return ApiKeys.accept(
            Files.readString(file).strip(), Role.ADMIN, "dev", Set.of(ApiKey.ALL_TENANTS));
      }
      ApiKeys.Issued fresh = ApiKeys.issue(Role.ADMIN, "dev", Set.of(ApiKey.ALL_TENANTS));
      PrivateFiles.folder(file.toAbsolutePath().getParent());
      Files.writeString(PrivateFiles.file(file), fresh.token() + "\n");
      return fresh;
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("cannot keep dev's API key in " + file, e);
    }
  }

  private static void printTemporal(
      PayrelayConfig.TemporalSettings settings, TemporalConnection.Kind kind, PrintStream out) {
    switch (kind) {
      case DEV_SERVER ->
          out.printf(
              "temporal   %s (Temporal CLI dev server, data in %s, namespace %s)%n"
                  + "temporal   Web UI %s/namespaces/%s/workflows%n",
              settings.target(),
              settings.local().dataDir().toAbsolutePath().normalize(),
              settings.namespace(),
              settings.local().uiUrl(),
              settings.namespace());
      case IN_MEMORY ->
          out.printf(
              "temporal   %s  !!! IN MEMORY (Java test server): no UI, no listing by state, no"
                  + " Schedules, workflows LOST on restart !!!%n",
              settings.target());
      case EXTERNAL ->
          out.printf(
              "temporal   %s (external, namespace %s)%n", settings.target(), settings.namespace());
    }
  }

  private static void printLink(
      PayrelayConfig.TemporalSettings settings, ClaimedEvent event, PrintStream out) {
    String workflow = WorkflowIds.payment(event.paymentId());
    out.printf(
        "payment    %s %-26s %s%n",
        event.paymentId(),
        event.eventType(),
        settings.isLocal() && !settings.local().inMemory()
            ? settings.local().uiUrl()
                + "/namespaces/"
                + settings.namespace()
                + "/workflows/"
                + workflow
            : workflow);
  }

  /** The API's database-backed services (ingestion pool), for tests that inspect state. */
  public Services services() {
    return services;
  }

  /** The worker's database-backed services (delivery pool). */
  public Services workerServices() {
    return workerServices;
  }

  /** The sandbox simulator. */
  public SandboxSimulator sandbox() {
    return sandbox;
  }

  /**
   * The Stripe, Alipay and WeChat Pay simulators dev started, and the configuration pointing at
   * them.
   */
  public ChannelSimulators simulators() {
    return simulators;
  }

  private static void printChannels(
      PayrelayConfig config, ChannelSimulators simulators, PrintStream out) {
    if (config.stripe().active()) {
      out.printf(
          "stripe     %s (account %s%s; webhook %s)%n",
          config.stripe().apiBase(),
          config.stripe().accountId(),
          simulators.stripe().isPresent() ? ", simulator" : "",
          config.api().webhookUrl("stripe"));
    }
    if (config.alipay().active()) {
      out.printf(
          "alipay     %s (app %s%s; webhook %s)%n",
          config.alipay().gatewayUrl(),
          config.alipay().appId(),
          simulators.alipay().isPresent() ? ", simulator" : "",
          config.api().webhookUrl("alipay"));
    }
    if (config.wechatpay().active()) {
      out.printf(
          "wechatpay  %s (mchid %s%s; webhook %s)%n",
          config.wechatpay().baseUrl(),
          config.wechatpay().mchId(),
          simulators.wechatpay().isPresent() ? ", simulator" : "",
          config.api().webhookUrl("wechatpay"));
    }
  }

  /** The worker role (Temporal workers, dispatcher, daily reconciliation trigger). */
  public WorkerRuntime worker() {
    return worker;
  }

  /** The Temporal connection. */
  public TemporalConnection temporal() {
    return temporal;
  }

  /**
   * Completes, with one line saying why, when the local Temporal dev server is lost: the child dev
   * started exited, or the server, started here or reused (one already listened on its port), has
   * not answered for longer than the readiness grace. Never completes for an external address or
   * the in-memory server: those are not dev's to watch.
   */
  public CompletableFuture<String> temporalLost() {
    if (temporal.kind() != TemporalConnection.Kind.DEV_SERVER) {
      return new CompletableFuture<>();
    }
    Path log = config.temporal().local().dataDir().resolve("temporal.log").toAbsolutePath();
    return CompletableFuture.anyOf(
            temporal
                .localServerExited()
                .thenApply(exit -> "the Temporal dev server exited (see " + log + ")"),
            readiness
                .outage(ProcessReadiness.TEMPORAL)
                .thenApply(
                    down ->
                        "the Temporal server at "
                            + config.temporal().target()
                            + " has not answered since "
                            + down.since()
                            + " ("
                            + down.error()
                            + "; its log is "
                            + log
                            + " when a dev started it)"))
        .thenApply(String.class::cast);
  }

  /** Starts the sandbox channel simulator on its configured bind address and port. */
  static SandboxSimulator startSandbox(PayrelayConfig config) {
    return startSandbox(config, SandboxSimulatorConfig.DEFAULT_RETRY_DELAYS);
  }

  /**
   * As {@link #startSandbox(PayrelayConfig)}, retrying undelivered callbacks after {@code
   * callbackRetryDelays} (the waits before the 2nd, 3rd, ... attempt).
   */
  static SandboxSimulator startSandbox(PayrelayConfig config, List<Duration> callbackRetryDelays) {
    PayrelayConfig.SandboxSettings s = config.sandbox();
    SandboxSimulator sandbox =
        new SandboxSimulator(
            SandboxSimulatorConfig.withDefaults(s.bindHost(), s.port(), s.merchantId(), s.secret())
                .withCallbackRetryDelays(callbackRetryDelays)
                .withOtherMerchants(otherMerchants(s)),
            Clock.systemUTC(),
            HttpClient.newHttpClient());
    sandbox.start();
    return sandbox;
  }

  /**
   * The sandbox's merchant ids for a start-up line: the default one, then each tenant account's
   * with its tenants, e.g. {@code m_payrelay_dev, m_acme [acme, acme-eu]}.
   */
  static String merchants(PayrelayConfig.SandboxSettings s) {
    StringBuilder line = new StringBuilder(s.merchantId());
    s.accounts()
        .forEach(
            a ->
                line.append(", ")
                    .append(a.merchantId())
                    .append(' ')
                    .append(a.tenants().stream().sorted().toList()));
    return line.toString();
  }

  /** The tenant accounts' merchant ids and secrets, for the simulator to sign their callbacks. */
  private static Map<String, String> otherMerchants(PayrelayConfig.SandboxSettings s) {
    Map<String, String> merchants = new HashMap<>();
    s.accounts().forEach(a -> merchants.put(a.merchantId(), a.secret()));
    return merchants;
  }

  @Override
  public void close() {
    api.close();
    sandbox.close();
    worker.close();
    // After the worker, so its in-flight queries and statements still reach the simulators.
    simulators.close();
    temporal.close();
    services.close();
    workerServices.close();
    metrics.close();
  }
}

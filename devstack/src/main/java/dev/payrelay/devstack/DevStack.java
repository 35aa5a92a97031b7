package dev.payrelay.devstack;

import dev.payrelay.api.auth.ApiKey;
import dev.payrelay.api.auth.ApiKeys;
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
import dev.payrelay.cli.DevState;
import dev.payrelay.ledger.db.Database;
import dev.payrelay.simulators.sandbox.SandboxSimulator;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
  private final String ownKey;

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
      ProcessMetrics metrics,
      String ownKey) {
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
    this.ownKey = ownKey;
  }

  /**
   * Starts the stack; prints where each part listens ({@link DevStartupLines}).
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
    DevStartupLines lines = new DevStartupLines(config, out);
    Database.createIfMissing(config.database());
    ProcessMetrics processMetrics = ProcessMetrics.start();
    PrometheusMeterRegistry metrics = processMetrics.registry();
    Services workerServices = Services.open(config.workerDatabase(), metrics, config.crashPoints());
    Services services = openApiServices(config, metrics, workerServices);
    lines.database(workerServices.database().migrate(), services, workerServices);
    TemporalConnection temporal = TemporalConnection.open(config.temporal(), metrics);
    lines.temporal(temporal.kind());
    SandboxSimulator sandbox = DevSandbox.start(config);
    lines.sandbox(sandbox);
    lines.channels(simulators);
    WorkerRuntime worker =
        WorkerRuntime.start(config, workerServices, temporal, "dev", lines::payment);
    lines.broker();
    ApiKeys keys = apiKeys(config, lines);
    // dev is api and worker in one: ready while the database, the broker and Temporal answer.
    Readiness readiness = ProcessReadiness.worker(config, services, temporal, "dev");
    ApiServer api =
        new ApiRuntime(config, services, keys, temporal.client(), worker::wakeDispatcher)
            .readiness(readiness)
            .start();
    lines.api(api);
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
        processMetrics,
        config.access().keys().isEmpty() ? devKey(devKeyFile(config)).token() : null);
  }

  /**
   * The API's services on its own pool ({@link PayrelayConfig#apiDatabase()}); closes the worker's,
   * opened first, when they cannot be opened.
   */
  private static Services openApiServices(
      PayrelayConfig config, PrometheusMeterRegistry metrics, Services workerServices) {
    try {
      return Services.open(config.apiDatabase(), metrics, config.crashPoints());
    } catch (RuntimeException e) {
      workerServices.close();
      throw e;
    }
  }

  /** The configured API keys; without any, dev's own ({@link #devKey}), its file printed. */
  private static ApiKeys apiKeys(PayrelayConfig config, DevStartupLines lines) {
    ApiKeys configured = config.access().keys();
    if (!configured.isEmpty()) {
      return configured;
    }
    Path file = devKeyFile(config);
    ApiKeys own = ApiKeys.of(List.of(devKey(file).key()));
    lines.devKey(file);
    return own;
  }

  private static Path devKeyFile(PayrelayConfig config) {
    return config.temporal().local().dataDir().resolve(AccessSettings.DEV_KEY_FILE);
  }

  /**
   * What the CLI in another shell needs to reach this dev ({@link DevState}): its process, admin
   * address and API port, UI, Temporal address and namespace, and its own key when it made one.
   */
  public DevState state() {
    Integer adminPort = config.access().adminPort();
    int port = adminPort == null ? api.port() : api.adminPort();
    PayrelayConfig.TemporalSettings t = config.temporal();
    return new DevState(
        ProcessHandle.current().pid(),
        "http://127.0.0.1:" + port,
        api.port(),
        temporal.kind() == TemporalConnection.Kind.DEV_SERVER ? t.local().uiUrl().toString() : null,
        t.target(),
        t.namespace(),
        ownKey);
  }

  /** Where this dev's state file goes: {@link DevState#file} of its data directory. */
  public Path stateFile() {
    return DevState.file(config.temporal().local().dataDir());
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

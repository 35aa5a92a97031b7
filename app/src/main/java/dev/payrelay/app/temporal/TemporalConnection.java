package dev.payrelay.app.temporal;

import com.uber.m3.tally.RootScopeBuilder;
import com.uber.m3.tally.Scope;
import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.config.PrivateFiles;
import dev.payrelay.app.config.TemporalSecurity;
import dev.payrelay.app.runtime.ProcessMetrics;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.micrometer.core.instrument.MeterRegistry;
import io.temporal.api.operatorservice.v1.DeleteNamespaceRequest;
import io.temporal.api.workflowservice.v1.DescribeNamespaceRequest;
import io.temporal.api.workflowservice.v1.GetSystemInfoRequest;
import io.temporal.api.workflowservice.v1.RegisterNamespaceRequest;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.client.schedules.ScheduleClient;
import io.temporal.client.schedules.ScheduleClientOptions;
import io.temporal.common.reporter.MicrometerClientStatsReporter;
import io.temporal.serviceclient.OperatorServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.testserver.TestServer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client connection to Temporal: an external frontend ({@code PAYRELAY_TEMPORAL_ADDRESS}), the
 * local dev server (started as a child process by {@link #open} when it is not running), or, only
 * when asked for explicitly, the in-memory Java test server. {@link #open} also makes sure the
 * namespace exists and carries payrelay's search attributes.
 *
 * <p>Given a meter registry, the SDK's own metrics (Temporal SDK metrics reference: {@code
 * temporal_workflow_task_schedule_to_start_latency}, {@code
 * temporal_workflow_task_execution_failed}, {@code temporal_activity_execution_failed}, {@code
 * temporal_request_failure}, ... tagged with namespace, task queue, workflow and activity type) go
 * to it through the SDK's {@link MicrometerClientStatsReporter}, flushed every {@link
 * #METRICS_REPORT_EVERY}; the client and every worker built on {@link #client()} report there. The
 * SDK's timers get the registry's buckets: {@link ProcessMetrics#TEMPORAL_BUCKETS} in a payrelay
 * process's registry ({@link ProcessMetrics#start()}).
 */
public final class TemporalConnection implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(TemporalConnection.class);
  private static final Duration NAMESPACE_RETENTION = Duration.ofDays(30);

  /** How long a local dev server whose port is open may answer {@code UNAVAILABLE}. */
  private static final Duration DEV_SERVER_SERVING = Duration.ofSeconds(60);

  /**
   * How often the SDK's tally scope flushes its counters and timers to the meter registry: a scrape
   * sees SDK metrics at most this late.
   */
  public static final Duration METRICS_REPORT_EVERY = Duration.ofSeconds(1);

  private final AutoCloseable server;
  private final Kind kind;
  private final WorkflowServiceStubs stubs;
  private final String namespace;
  private final String apiKey;
  private final WorkflowClient client;
  private final Scope metricsScope;

  /** What the connection talks to. */
  public enum Kind {
    /** A frontend payrelay did not start. */
    EXTERNAL,
    /** The Temporal CLI's dev server on 127.0.0.1 (started here or found running). */
    DEV_SERVER,
    /** The Java test server in this process: in memory, no UI, no listing, no Schedules. */
    IN_MEMORY
  }

  private TemporalConnection(
      AutoCloseable server,
      Kind kind,
      PayrelayConfig.TemporalSettings settings,
      MeterRegistry metrics) {
    this.server = server;
    this.kind = kind;
    this.metricsScope = scope(metrics);
    this.stubs = TemporalStubs.connect(settings, metricsScope);
    this.namespace = settings.namespace();
    this.apiKey = settings.security().apiKey();
    this.client =
        WorkflowClient.newInstance(
            stubs,
            WorkflowClientOptions.newBuilder()
                .setNamespace(namespace)
                .setDataConverter(settings.security().dataConverter())
                .build());
  }

  /**
   * Connects for a process that runs workers: starts the local server first when no address is set
   * (the dev server, or the Java test server when {@code inMemory}), then makes sure the namespace
   * and the search attributes exist.
   *
   * @throws IllegalStateException if the dev server cannot be started, or the frontend does not
   *     answer (the message says how to start one)
   */
  public static TemporalConnection open(PayrelayConfig.TemporalSettings settings) {
    return open(settings, null);
  }

  /**
   * As {@link #open(PayrelayConfig.TemporalSettings)}, reporting the SDK's metrics (its workers'
   * too) to {@code metrics}, or to nothing when it is null.
   */
  public static TemporalConnection open(
      PayrelayConfig.TemporalSettings settings, MeterRegistry metrics) {
    AutoCloseable server = null;
    Kind kind = Kind.EXTERNAL;
    if (settings.isLocal()) {
      PayrelayConfig.LocalTemporal local = settings.local();
      if (local.inMemory()) {
        server = TestServer.createPortBoundServer(local.port());
        kind = Kind.IN_MEMORY;
      } else {
        // Its store holds every workflow's history: owner-only, like dev's key beside it.
        PrivateFiles.folder(local.dataDir());
        server =
            TemporalDevServer.startUnlessRunning(
                local.cli(),
                local.port(),
                local.uiPort(),
                local.dataDir().resolve("temporal.db"),
                local.dataDir().resolve("temporal.log"),
                java.util.List.of(settings.namespace()),
                local.uiCodecEndpoint());
        kind = Kind.DEV_SERVER;
      }
    }
    TemporalConnection connection = new TemporalConnection(server, kind, settings, metrics);
    connection.prepareNamespace();
    return connection;
  }

  /**
   * A client only, to an already running frontend (e.g. the {@code payrelay api} process or the CLI
   * signalling a {@code payrelay dev}'s server). Connects lazily, on first call. Its data converter
   * encrypts payloads when payload keys are set ({@link TemporalSecurity#dataConverter()}).
   */
  public static TemporalConnection client(PayrelayConfig.TemporalSettings settings) {
    return client(settings, null);
  }

  /**
   * As {@link #client(PayrelayConfig.TemporalSettings)}, reporting the SDK's client metrics to
   * {@code metrics}, or to nothing when it is null.
   */
  public static TemporalConnection client(
      PayrelayConfig.TemporalSettings settings, MeterRegistry metrics) {
    return new TemporalConnection(
        null, settings.isLocal() ? Kind.DEV_SERVER : Kind.EXTERNAL, settings, metrics);
  }

  /** The SDK's tally scope over {@code metrics} (Temporal docs, "Java SDK metrics"), or null. */
  private static Scope scope(MeterRegistry metrics) {
    if (metrics == null) {
      return null;
    }
    return new RootScopeBuilder()
        .reporter(new MicrometerClientStatsReporter(metrics))
        .reportEvery(com.uber.m3.util.Duration.ofMillis(METRICS_REPORT_EVERY.toMillis()));
  }

  /** The client for the configured namespace. */
  public WorkflowClient client() {
    return client;
  }

  /** A Schedule client for the configured namespace (unsupported by {@link Kind#IN_MEMORY}). */
  public ScheduleClient schedules() {
    return ScheduleClient.newInstance(
        stubs,
        ScheduleClientOptions.newBuilder()
            .setNamespace(namespace)
            .setDataConverter(client.getOptions().getDataConverter())
            .build());
  }

  /**
   * Completes when the local dev server this connection started exits (a crash, a kill); never
   * completes otherwise.
   */
  public CompletableFuture<Void> localServerExited() {
    return server instanceof TemporalDevServer dev ? dev.exited() : new CompletableFuture<>();
  }

  /**
   * Asks the frontend for its system info ({@code GetSystemInfo}, the call every SDK makes first)
   * on this connection's channel, within {@code deadline}: whether this process reaches Temporal.
   *
   * @throws StatusRuntimeException with the server's or the channel's status when it did not answer
   *     in time, e.g. {@code UNAVAILABLE} or {@code DEADLINE_EXCEEDED}
   */
  public void checkReachable(Duration deadline) {
    stubs
        .blockingStub()
        .withDeadlineAfter(deadline.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)
        .getSystemInfo(GetSystemInfoRequest.getDefaultInstance());
  }

  /** What this connection talks to. */
  public Kind kind() {
    return kind;
  }

  private void prepareNamespace() {
    try {
      if (kind == Kind.DEV_SERVER) {
        registerNamespaceOnceServing();
      } else if (kind == Kind.EXTERNAL) {
        try {
          registerNamespace();
        } catch (StatusRuntimeException e) {
          if (e.getStatus().getCode() == Status.Code.UNAVAILABLE
              || e.getStatus().getCode() == Status.Code.UNAUTHENTICATED) {
            throw e;
          }
          // A managed cluster may deny namespace administration to workers; its operators create
          // the namespace (deploy/temporal-namespace.sh), and the first call names what is wrong.
          log.warn("could not check or register namespace {}: {}", namespace, e.getStatus());
        }
      }
      registerSearchAttributes();
    } catch (StatusRuntimeException e) {
      TemporalFailures.throwIfTlsOrAuth(e, stubs.getOptions().getTarget());
      if (e.getStatus().getCode() == Status.Code.UNAVAILABLE) {
        throw new IllegalStateException(
            "no Temporal frontend answers at "
                + stubs.getOptions().getTarget()
                + ": start ./payrelay dev (it runs the dev server) or set"
                + " PAYRELAY_TEMPORAL_ADDRESS",
            e);
      }
      throw e;
    }
  }

  /**
   * Registers the namespace on the local dev server, which opens its port before its frontend
   * serves: until its services join their membership ring it answers {@code UNAVAILABLE} ("Not
   * enough hosts to serve the request"), longer on a loaded machine. Asks again every 250 ms for up
   * to {@link #DEV_SERVER_SERVING}; then the last {@code UNAVAILABLE} goes to the caller.
   *
   * @throws IllegalStateException naming the server's log when the server started here exited
   */
  private void registerNamespaceOnceServing() {
    long deadline = System.nanoTime() + DEV_SERVER_SERVING.toNanos();
    while (true) {
      try {
        registerNamespace();
        return;
      } catch (StatusRuntimeException e) {
        if (e.getStatus().getCode() != Status.Code.UNAVAILABLE || System.nanoTime() > deadline) {
          throw e;
        }
        if (server instanceof TemporalDevServer dev && dev.exited().isDone()) {
          throw new IllegalStateException(
              "the Temporal dev server payrelay started exited after opening its port (another"
                  + " process may hold its UI or HTTP port); see its log, "
                  + dev.logFile().toAbsolutePath(),
              e);
        }
        log.info("the Temporal dev server does not serve yet ({}); asking again", e.getStatus());
        try {
          Thread.sleep(250);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw e;
        }
      }
    }
  }

  private void registerNamespace() {
    try {
      stubs
          .blockingStub()
          .describeNamespace(DescribeNamespaceRequest.newBuilder().setNamespace(namespace).build());
      return;
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() != Status.Code.NOT_FOUND) {
        throw e;
      }
    }
    try {
      stubs
          .blockingStub()
          .registerNamespace(
              RegisterNamespaceRequest.newBuilder()
                  .setNamespace(namespace)
                  .setWorkflowExecutionRetentionPeriod(
                      com.google.protobuf.Duration.newBuilder()
                          .setSeconds(NAMESPACE_RETENTION.toSeconds()))
                  .build());
      log.info("registered namespace {}", namespace);
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() != Status.Code.ALREADY_EXISTS) {
        throw e;
      }
    }
  }

  /**
   * Deletes this connection's namespace with everything in it, running workflows included (the
   * server removes it in the background), e.g. a soak's own namespace after it passed.
   *
   * @throws StatusRuntimeException when the server refuses (e.g. the namespace is {@code default})
   */
  public void deleteNamespace() {
    operator()
        .blockingStub()
        .deleteNamespace(DeleteNamespaceRequest.newBuilder().setNamespace(namespace).build());
    log.info("deleted namespace {}", namespace);
  }

  private OperatorServiceStubs operator() {
    return TemporalStubs.operator(stubs, apiKey);
  }

  private void registerSearchAttributes() {
    new SearchAttributeRegistration(
            this::operator, namespace, kind == Kind.EXTERNAL, kind != Kind.IN_MEMORY)
        .ensure();
  }

  @Override
  public void close() {
    stubs.shutdown();
    if (metricsScope != null) {
      try {
        metricsScope.close();
      } catch (com.uber.m3.tally.ScopeCloseException e) {
        log.warn("error flushing Temporal SDK metrics: {}", e.toString());
      }
    }
    if (server != null) {
      try {
        server.close();
      } catch (Exception e) {
        log.warn("error stopping the local Temporal server: {}", e.toString());
      }
    }
  }
}

package dev.payrelay.cli;

import dev.payrelay.app.config.OperationsSettings;
import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.config.ProductionChecks;
import dev.payrelay.app.runtime.ProcessMetrics;
import dev.payrelay.app.runtime.ProcessReadiness;
import dev.payrelay.app.runtime.Services;
import dev.payrelay.app.runtime.WorkerRuntime;
import dev.payrelay.app.temporal.MetricsListener;
import dev.payrelay.app.temporal.TemporalConnection;
import java.io.IOException;
import java.net.InetAddress;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code payrelay worker}: Temporal worker plus outbox dispatcher. */
@Command(
    name = "worker",
    mixinStandardHelpOptions = true,
    description = {
      "Run the Temporal worker and the outbox dispatcher.",
      "Payment workflows with their publish and grant activities, and the outbox hand-off to them.",
      "Connects to PAYRELAY_TEMPORAL_ADDRESS; without it, to the local Temporal dev server (started if not running).",
      "With PAYRELAY_WORKER_METRICS_PORT set (0 = off, the default), serves /metrics, /health/live and /health/ready on PAYRELAY_WORKER_METRICS_HOST (default 127.0.0.1); ready while the database, RabbitMQ and Temporal answer (each may fail for PAYRELAY_READINESS_GRACE).",
      ProductionChecks.HELP
    })
final class WorkerCommand implements Callable<Integer> {

  @ParentCommand PayrelayCommand payrelay;

  @Spec CommandSpec spec;

  @Option(
      names = "--owner",
      description = {
        "This instance's name, written as lease owner on its outbox claims and job leases; keep",
        "it stable across restarts, so a restarted instance takes back at once the claims its",
        "killed predecessor held (default: the host name). Two workers on one host need two names."
      })
  String owner;

  @Override
  public Integer call() throws Exception {
    Optional<PayrelayConfig> checked =
        payrelay.serverConfiguration(spec.commandLine().getErr(), ProductionChecks.Role.WORKER);
    if (checked.isEmpty()) {
      return PayrelayCommand.CONFIGURATION_ERROR;
    }
    PayrelayConfig config = checked.get();
    String name = owner != null ? owner : InetAddress.getLocalHost().getHostName();
    ProcessMetrics metrics = ProcessMetrics.start();
    Services services =
        Services.open(config.workerDatabase(), metrics.registry(), config.crashPoints());
    TemporalConnection temporal = TemporalConnection.open(config.temporal(), metrics.registry());
    WorkerRuntime worker = WorkerRuntime.start(config, services, temporal, name);
    System.out.printf(
        "worker %s polling %s, dispatching the outbox%n", name, config.temporal().target());
    MetricsListener listener = metricsListener(config, metrics, services, temporal, name, worker);
    PayrelayCommand.runUntilStopped(
        () -> {
          if (listener != null) {
            listener.close();
          }
          worker.close();
          temporal.close();
          services.close();
          metrics.close();
        });
    return 0;
  }

  /**
   * Serves {@code /metrics}, {@code /health/live} and {@code /health/ready} when {@code
   * PAYRELAY_WORKER_METRICS_PORT} is set, and prints where.
   *
   * @return the listener, or null when the port is 0 (off)
   */
  private static MetricsListener metricsListener(
      PayrelayConfig config,
      ProcessMetrics metrics,
      Services services,
      TemporalConnection temporal,
      String name,
      WorkerRuntime worker)
      throws IOException {
    OperationsSettings ops = config.operations();
    if (!ops.workerMetricsEnabled()) {
      return null;
    }
    MetricsListener listener =
        MetricsListener.start(
            ops.workerMetricsHost(),
            ops.workerMetricsPort(),
            metrics.registry(),
            ProcessReadiness.worker(config, services, temporal, name),
            worker::brokerStatus);
    System.out.printf(
        "worker metrics http://%s:%d/metrics (health /health/live, /health/ready)%n",
        ops.workerMetricsHost(), listener.port());
    return listener;
  }
}

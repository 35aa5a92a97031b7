package dev.payrelay.worker;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
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
    Optional<PayrelayConfig> checked = payrelay.serverConfiguration(spec.commandLine().getErr());
    if (checked.isEmpty()) {
      return PayrelayCommand.CONFIGURATION_ERROR;
    }
    PayrelayConfig config = checked.get();
    String name = owner != null ? owner : InetAddress.getLocalHost().getHostName();
    Services services =
        Services.open(
            config.workerDatabase(),
            new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
            config.crashPoints());
    TemporalConnection temporal = TemporalConnection.open(config.temporal());
    WorkerRuntime worker = WorkerRuntime.start(config, services, temporal, name);
    System.out.printf(
        "worker %s polling %s, dispatching the outbox%n", name, config.temporal().target());
    PayrelayCommand.runUntilStopped(
        () -> {
          worker.close();
          temporal.close();
          services.close();
        });
    return 0;
  }
}

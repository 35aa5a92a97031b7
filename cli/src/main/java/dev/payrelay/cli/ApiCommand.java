package dev.payrelay.cli;

import dev.payrelay.api.http.ApiServer;
import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.config.ProductionChecks;
import dev.payrelay.app.runtime.ApiRuntime;
import dev.payrelay.app.runtime.ProcessMetrics;
import dev.payrelay.app.runtime.Services;
import dev.payrelay.app.temporal.TemporalConnection;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code payrelay api}: the HTTP API alone; it needs only the database. */
@Command(
    name = "api",
    mixinStandardHelpOptions = true,
    description = {
      "Serve the HTTP API only: payments, channel webhooks, /health, /metrics.",
      "Listens on PAYRELAY_API_HOST:PAYRELAY_API_PORT.",
      "Needs only the database: callbacks are accepted while Temporal or RabbitMQ are down.",
      ProductionChecks.HELP
    })
final class ApiCommand implements Callable<Integer> {

  @ParentCommand PayrelayCommand payrelay;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    Optional<PayrelayConfig> checked =
        payrelay.serverConfiguration(spec.commandLine().getErr(), ProductionChecks.Role.API);
    if (checked.isEmpty()) {
      return PayrelayCommand.CONFIGURATION_ERROR;
    }
    PayrelayConfig config = checked.get();
    ProcessMetrics metrics = ProcessMetrics.start();
    Services services =
        Services.open(config.apiDatabase(), metrics.registry(), config.crashPoints());
    // The dispatcher runs in the worker process, which polls; nothing to wake here.
    TemporalConnection temporal = TemporalConnection.client(config.temporal(), metrics.registry());
    ApiServer api =
        new ApiRuntime(config, services, config.access().keys(), temporal.client(), () -> {})
            .start();
    System.out.printf(
        "api listening on http://%s:%d (%d API key(s))%n",
        config.api().host(), api.port(), config.access().keys().size());
    if (config.access().adminPort() != null) {
      System.out.printf(
          "admin api listening on http://%s:%d%n", config.access().adminHost(), api.adminPort());
    }
    PayrelayCommand.runUntilStopped(
        () -> {
          api.close();
          temporal.close();
          services.close();
          metrics.close();
        });
    return 0;
  }
}

package dev.payrelay.worker;

import dev.payrelay.api.ApiServer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code payrelay api}: the HTTP API alone; it needs only the database. */
@Command(
    name = "api",
    mixinStandardHelpOptions = true,
    description = {
      "Serve the HTTP API only: payments, channel webhooks, /health, /metrics.",
      "Listens on PAYRELAY_API_HOST:PAYRELAY_API_PORT.",
      "Needs only the database: callbacks are accepted while Temporal or RabbitMQ are down."
    })
final class ApiCommand implements Callable<Integer> {

  @Override
  public Integer call() throws Exception {
    PayrelayConfig config = PayrelayCommand.config();
    PrometheusMeterRegistry metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    Services services = Services.open(config.apiDatabase(), metrics, config.crashPoints());
    // The dispatcher runs in the worker process, which polls; nothing to wake here.
    TemporalConnection temporal = TemporalConnection.client(config.temporal(), metrics);
    ApiServer api = ApiRuntime.start(config, services, temporal.client(), () -> {});
    System.out.printf("api listening on http://%s:%d%n", config.api().host(), api.port());
    PayrelayCommand.runUntilStopped(
        () -> {
          api.close();
          temporal.close();
          services.close();
        });
    return 0;
  }
}

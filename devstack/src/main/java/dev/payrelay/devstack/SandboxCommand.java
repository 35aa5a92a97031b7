package dev.payrelay.devstack;

import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.config.ProductionChecks;
import dev.payrelay.cli.OptionalCommand;
import dev.payrelay.cli.PayrelayCommand;
import dev.payrelay.simulators.sandbox.SandboxSimulator;
import dev.payrelay.simulators.sandbox.SandboxSimulatorConfig;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code payrelay sandbox}: the sandbox payment channel simulator alone. */
@Command(
    name = "sandbox",
    mixinStandardHelpOptions = true,
    description = {
      "Serve the sandbox payment channel simulator only.",
      "On PAYRELAY_SANDBOX_PORT: register payments, a pay page,",
      "POST /sandbox/v1/payments/{id}/pay sends an HMAC-SHA256 signed callback to the payment's notify_url.",
      ProductionChecks.HELP
    })
public final class SandboxCommand implements Callable<Integer>, OptionalCommand {

  @ParentCommand PayrelayCommand payrelay;

  @Spec CommandSpec spec;

  @Option(
      names = "--callback-retry-seconds",
      split = ",",
      paramLabel = "SECONDS",
      description = {
        "Waits before the 2nd, 3rd, ... callback delivery attempt, e.g. 1,2,4,8,15,15",
        "(default: 1,2,4,8,16,32,60: 8 attempts over about 2 minutes)."
      })
  List<Integer> callbackRetrySeconds;

  @Override
  public Integer call() throws Exception {
    Optional<PayrelayConfig> checked =
        payrelay.serverConfiguration(spec.commandLine().getErr(), ProductionChecks.Role.SANDBOX);
    if (checked.isEmpty()) {
      return PayrelayCommand.CONFIGURATION_ERROR;
    }
    PayrelayConfig config = checked.get();
    List<Duration> retries =
        callbackRetrySeconds == null
            ? SandboxSimulatorConfig.DEFAULT_RETRY_DELAYS
            : callbackRetrySeconds.stream().map(s -> Duration.ofSeconds(s)).toList();
    SandboxSimulator sandbox = DevSandbox.start(config, retries);
    System.out.printf(
        "sandbox channel listening on %s (merchant %s)%n",
        sandbox.baseUrl(), DevSandbox.merchants(config.sandbox()));
    PayrelayCommand.runUntilStopped(sandbox);
    return 0;
  }
}

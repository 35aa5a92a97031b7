package dev.payrelay.worker;

import dev.payrelay.channels.sandbox.SandboxSimulator;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code payrelay sandbox}: the sandbox payment channel simulator alone. */
@Command(
    name = "sandbox",
    mixinStandardHelpOptions = true,
    description = {
      "Serve the sandbox payment channel simulator only.",
      "On PAYRELAY_SANDBOX_PORT: register payments, a pay page,",
      "POST /sandbox/v1/payments/{id}/pay sends an HMAC-SHA256 signed callback to the payment's notify_url."
    })
final class SandboxCommand implements Callable<Integer> {

  @Override
  public Integer call() throws Exception {
    PayrelayConfig config = PayrelayCommand.config();
    SandboxSimulator sandbox = DevStack.startSandbox(config);
    System.out.printf(
        "sandbox channel listening on %s (merchant %s)%n",
        sandbox.baseUrl(), config.sandbox().merchantId());
    PayrelayCommand.runUntilStopped(sandbox);
    return 0;
  }
}

package dev.payrelay.cli;

import dev.payrelay.app.config.PayrelayConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code payrelay admin}: operator views ({@code payrelay admin payments}) and signal tokens for
 * fixes sent from the Temporal UI ({@code payrelay admin sign-signal}).
 */
@Command(
    name = "admin",
    mixinStandardHelpOptions = true,
    description = "Operator views of payrelay's state and signal tokens, through the admin API.",
    subcommands = {AdminPaymentsCommand.class, AdminSignSignalCommand.class})
final class AdminCommand implements Runnable {

  @ParentCommand PayrelayCommand payrelay;

  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** The configuration of the {@code payrelay} command this runs under. */
  PayrelayConfig config() {
    return payrelay.configuration();
  }
}

package dev.payrelay.worker;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code payrelay admin}: operator views; today {@code payrelay admin payments}. */
@Command(
    name = "admin",
    mixinStandardHelpOptions = true,
    description = "Operator views of payrelay's state (the admin API's, from the command line).",
    subcommands = {AdminPaymentsCommand.class})
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

package dev.payrelay.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A {@code payrelay} command that only groups its subcommands ({@code payment}, {@code outbox},
 * {@code consumers}, {@code consumers quarantine}, {@code admin}): run alone, it prints its usage.
 */
abstract class CommandGroup implements Runnable {

  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}

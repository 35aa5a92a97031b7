package dev.payrelay.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.payrelay.app.config.PayrelayConfig;
import java.io.PrintWriter;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The picocli mixin of every operator command that goes through the admin API ({@code @Mixin
 * AdminApi api}): a client for the configured admin API, the command's output, and a failed request
 * as its message and exit code. The configuration is the root {@link PayrelayCommand}'s, so every
 * subcommand, however deep, sends to the same URL with the same key: a running {@code payrelay
 * dev}'s ({@link DevState}) when the environment names neither address nor key.
 *
 * <p>Exit codes as {@link AdminClient}'s; a failure prints {@code payrelay: <message>} on stderr,
 * and, when the command was given {@code --json}, also {@code {"error": {"message": "...",
 * "exitCode": 2}}} on stdout, so a script that parses stdout reads the failure as JSON too. It adds
 * no option: picocli takes a class as a mixin only with an annotation, hence the empty
 * {@code @Command}.
 */
@Command
final class AdminApi {

  /** Something a command does with the admin API; returns the command's exit code. */
  interface Work {
    int run(AdminClient admin) throws InterruptedException;
  }

  @Spec(Spec.Target.MIXEE)
  private CommandSpec command;

  /**
   * Runs {@code work} with a client of the admin API.
   *
   * @return {@code work}'s exit code, or the failed request's ({@link AdminClient.Failure}) after
   *     printing its message
   * @throws IllegalArgumentException when a {@code PAYRELAY_*} value is malformed
   */
  int call(Work work) throws InterruptedException {
    PayrelayCommand payrelay = (PayrelayCommand) command.root().userObject();
    try {
      PayrelayConfig config = payrelay.configuration();
      return work.run(
          new AdminClient(
              DevState.apply(
                  config.access(),
                  payrelay.environment(),
                  DevState.file(config.temporal().local().dataDir()),
                  err())));
    } catch (AdminClient.Failure e) {
      return fail(e.getMessage(), e.exitCode);
    }
  }

  /**
   * Prints {@code answer} as the admin API's pretty JSON when {@code json}, else as {@code text}
   * writes it.
   *
   * @return {@link AdminClient#OK}
   */
  int print(JsonNode answer, boolean json, Consumer<PrintWriter> text) {
    PrintWriter out = out();
    if (json) {
      out.println(AdminClient.pretty(answer));
    } else {
      text.accept(out);
    }
    out.flush();
    return AdminClient.OK;
  }

  /** Refuses the command's input before any request: prints why; {@link AdminClient#REFUSED}. */
  int refuse(String why) {
    return fail(why, AdminClient.REFUSED);
  }

  /** The command's standard output. */
  PrintWriter out() {
    return command.commandLine().getOut();
  }

  /** The command's standard error. */
  PrintWriter err() {
    return command.commandLine().getErr();
  }

  private int fail(String message, int exitCode) {
    PrintWriter err = err();
    err.println("payrelay: " + message);
    err.flush();
    if (jsonAsked()) {
      ObjectNode error = JsonNodeFactory.instance.objectNode();
      error.putObject("error").put("message", message).put("exitCode", exitCode);
      PrintWriter out = out();
      out.println(AdminClient.pretty(error));
      out.flush();
    }
    return exitCode;
  }

  /** Whether the command has a {@code --json} option and it was given. */
  private boolean jsonAsked() {
    var option = command.findOption("--json");
    return option != null && Boolean.TRUE.equals(option.getValue());
  }
}

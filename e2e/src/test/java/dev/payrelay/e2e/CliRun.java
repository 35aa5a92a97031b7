package dev.payrelay.e2e;

import dev.payrelay.cli.PayrelayCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;

/**
 * One {@code payrelay} command line run in-process over {@code env}, as the soak tool runs it.
 *
 * @param exit its exit code
 * @param out what it printed on stdout
 * @param err what it printed on stderr
 */
record CliRun(int exit, String out, String err) {

  static CliRun of(Map<String, String> env, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit =
        PayrelayCommand.commandLine(new PayrelayCommand(env))
            .setOut(new PrintWriter(out))
            .setErr(new PrintWriter(err))
            .execute(args);
    return new CliRun(exit, out.toString(), err.toString());
  }
}

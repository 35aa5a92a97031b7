package dev.payrelay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class HelpPathCommandTest {

  @Test
  void help_ofANestedPath_showsThatCommandsUsage() {
    String nested = help(0, "help", "payment", "show");
    assertThat(nested).startsWith("Usage: payrelay payment show");
    assertThat(help(0, "help", "payment")).startsWith("Usage: payrelay payment ");
    assertThat(help(0, "help")).startsWith("Usage: payrelay ");
  }

  @Test
  void help_ofAnUnknownName_isRefusedWithTheNamesThereAre() {
    StringWriter err = new StringWriter();
    CommandLine cli = PayrelayCommand.commandLine(new PayrelayCommand(Map.of()));
    cli.setOut(new PrintWriter(new StringWriter()));
    cli.setErr(new PrintWriter(err));
    assertThat(cli.execute("help", "payment", "shwo")).isEqualTo(2);
    assertThat(err.toString()).contains("no command 'shwo' in 'payrelay payment'; there are: ");
  }

  private static String help(int exit, String... args) {
    StringWriter out = new StringWriter();
    CommandLine cli = PayrelayCommand.commandLine(new PayrelayCommand(Map.of()));
    cli.setOut(new PrintWriter(out));
    assertThat(cli.execute(args)).isEqualTo(exit);
    return out.toString();
  }
}

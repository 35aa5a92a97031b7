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

  @Test
  void help_belowACommandWithoutSubcommands_saysSo_insteadOfAnEmptyList() {
    StringWriter err = new StringWriter();
    CommandLine cli = PayrelayCommand.commandLine(new PayrelayCommand(Map.of()));
    cli.setOut(new PrintWriter(new StringWriter()));
    cli.setErr(new PrintWriter(err));
    assertThat(cli.execute("help", "payment", "show", "more")).isEqualTo(2);
    assertThat(err.toString())
        .contains("'payrelay payment show' has no sub-commands; see payrelay help payment show")
        .doesNotContain("there are:");
  }

  @Test
  void everyOptionAndParameter_ofEveryCommand_hasADescriptionInItsHelp() {
    java.util.List<String> bare = new java.util.ArrayList<>();
    walk(PayrelayCommand.commandLine(new PayrelayCommand(Map.of())), bare);
    assertThat(bare).isEmpty();
  }

  private static void walk(CommandLine cli, java.util.List<String> bare) {
    CommandLine.Model.CommandSpec spec = cli.getCommandSpec();
    spec.options().stream()
        .filter(o -> String.join("", o.description()).isBlank())
        .forEach(o -> bare.add(spec.qualifiedName() + " " + o.longestName()));
    spec.positionalParameters().stream()
        .filter(p -> String.join("", p.description()).isBlank())
        .forEach(p -> bare.add(spec.qualifiedName() + " " + p.paramLabel()));
    cli.getSubcommands().values().forEach(sub -> walk(sub, bare));
  }

  private static String help(int exit, String... args) {
    StringWriter out = new StringWriter();
    CommandLine cli = PayrelayCommand.commandLine(new PayrelayCommand(Map.of()));
    cli.setOut(new PrintWriter(out));
    assertThat(cli.execute(args)).isEqualTo(exit);
    return out.toString();
  }
}

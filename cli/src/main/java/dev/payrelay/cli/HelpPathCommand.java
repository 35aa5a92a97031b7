package dev.payrelay.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help;
import picocli.CommandLine.Parameters;

/**
 * {@code payrelay help [COMMAND [SUBCOMMAND...]]}: the help of the command at that path, so {@code
 * help payment show} shows {@code payment show}'s options (picocli's own help command reads only
 * the first name and showed {@code payment}'s). An unknown name is refused with the names there
 * are.
 */
@Command(
    name = "help",
    helpCommand = true,
    description = "Shows the help of a command, e.g. help payment show.")
final class HelpPathCommand implements CommandLine.IHelpCommandInitializable2, Runnable {

  @Parameters(paramLabel = "COMMAND", arity = "0..*", description = "The command's path.")
  String[] path = {};

  private CommandLine self;
  private Help.ColorScheme colors;
  private PrintWriter out;

  @Override
  public void init(
      CommandLine helpCommandLine, Help.ColorScheme colorScheme, PrintWriter out, PrintWriter err) {
    this.self = helpCommandLine;
    this.colors = colorScheme;
    this.out = out;
  }

  @Override
  public void run() {
    CommandLine target = self.getParent();
    for (String name : path) {
      CommandLine next = target.getSubcommands().get(name);
      if (next == null) {
        throw new CommandLine.ParameterException(
            self,
            "no command '"
                + name
                + "' in '"
                + target.getCommandSpec().qualifiedName()
                + "'; there are: "
                + String.join(", ", target.getSubcommands().keySet()));
      }
      target = next;
    }
    target.usage(out, colors);
    out.flush();
  }
}

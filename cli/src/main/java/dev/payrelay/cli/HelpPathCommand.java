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
        String where = target.getCommandSpec().qualifiedName();
        throw new CommandLine.ParameterException(
            self,
            target.getSubcommands().isEmpty()
                ? "'" + where + "' has no sub-commands; see payrelay help " + path(target)
                : "no command '"
                    + name
                    + "' in '"
                    + where
                    + "'; there are: "
                    + String.join(", ", target.getSubcommands().keySet()));
      }
      target = next;
    }
    target.usage(out, colors);
    out.flush();
  }

  /** {@code target}'s names below {@code payrelay}, as {@code help} takes them. */
  private String path(CommandLine target) {
    String qualified = target.getCommandSpec().qualifiedName(" ");
    int space = qualified.indexOf(' ');
    return space < 0 ? "" : qualified.substring(space + 1);
  }
}

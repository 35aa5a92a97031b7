package dev.payrelay.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.app.config.binder.Binder;
import dev.payrelay.app.config.binder.ConfigProblems;
import dev.payrelay.app.config.binder.Setting;
import dev.payrelay.app.config.binder.SettingsModel;
import dev.payrelay.cli.PayrelayCommand;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The documentation ({@code README.md} and {@code docs/*.md}) and the code agree: every {@code
 * payrelay} subcommand is documented, every {@code payrelay} command the docs show names a real
 * subcommand with real options, every relative link reaches a file and heading, and the README
 * stays short (issue 26: at most ~300 lines). Needs no service.
 */
class DocsTest {

  /** Issue 26: "README.md of at most ~300 lines". */
  private static final int README_MAX_LINES = 300;

  /** A subcommand name as picocli declares them (dev, sign-signal). */
  private static final Pattern WORD = Pattern.compile("[a-z][a-z-]*");

  /** Where a shell command ends on its line: a pipe, a list, a comment, a redirection. */
  private static final Set<String> END_OF_COMMAND =
      Set.of("|", "||", "&&", ";", "#", "\\", ">", "2>", "&");

  /** Commands of the {@code ./payrelay} launcher itself, run before it starts the jar. */
  private static final Set<String> LAUNCHER_COMMANDS = Set.of("test");

  /** What {@link #commandProblems} says of a command that checks out. */
  private static final String OK = "ok";

  /** The CLI as {@code payrelay} builds it, subcommands and options from their annotations. */
  private static final CommandLine ROOT_COMMAND =
      PayrelayCommand.commandLine(new PayrelayCommand(Map.of()));

  private final List<MarkdownDocs.Document> docs = MarkdownDocs.all();

  @Test
  void everySubcommand_isDocumentedAs_payrelayItsPath() {
    String text =
        docs.stream()
            .flatMap(d -> d.lines().stream())
            .collect(Collectors.joining(" "))
            .replace("`", " ")
            .replaceAll("\\s+", " ");
    List<String> missing = new ArrayList<>();
    for (String path : subcommandPaths().keySet()) {
      Pattern mention =
          Pattern.compile("(?<![\\w.-])payrelay " + Pattern.quote(path) + "(?![\\w-])");
      if (!mention.matcher(text).find()) {
        missing.add("payrelay " + path);
      }
    }
    assertThat(subcommandPaths()).containsKeys("dev", "outbox replay", "consumers quarantine list");
    assertThat(missing).as("subcommands no README.md or docs/*.md mentions").isEmpty();
  }

  @Test
  void everyPayrelayCommandInTheDocs_namesARealSubcommand_withItsOptions() {
    List<String> wrong = new ArrayList<>();
    int commands = 0;
    for (MarkdownDocs.Document doc : docs) {
      List<MarkdownDocs.Block> code = new ArrayList<>(doc.code());
      code.addAll(doc.codeSpans());
      for (MarkdownDocs.Block block : code) {
        String[] lines = block.text().split("\n");
        for (int n = 0; n < lines.length; n++) {
          List<String> problems = commandProblems(lines[n]);
          commands += problems.size();
          for (String problem : problems) {
            if (!problem.equals(OK)) {
              wrong.add(where(doc.path(), block.firstLine() + n) + ": " + problem);
            }
          }
        }
      }
    }
    assertThat(commands).as("payrelay commands found in the docs").isGreaterThan(40);
    assertThat(wrong).as("payrelay commands in the docs that the CLI does not have").isEmpty();
  }

  @Test
  void everyRelativeLink_reachesAFile_andItsHeading() {
    List<String> broken = new ArrayList<>();
    int links = 0;
    for (MarkdownDocs.Document doc : docs) {
      for (MarkdownDocs.Link link : doc.relativeLinks()) {
        links++;
        String problem = linkProblem(doc, link.target());
        if (problem != null) {
          broken.add(where(doc.path(), link.line()) + ": " + link.target() + ": " + problem);
        }
      }
    }
    assertThat(links).as("relative links found in the docs").isGreaterThan(40);
    assertThat(broken).as("relative links that lead nowhere").isEmpty();
  }

  /** {@code PAYRELAY_X=value}, in code or prose. */
  private static final Pattern ASSIGNED = Pattern.compile("\\b(PAYRELAY_[A-Z0-9_]+)=([^\\s`'\"]+)");

  /**
   * A setting's value given beside its name in prose: {@code `PAYRELAY_X` (30s)} or {@code
   * `PAYRELAY_X`, 5m; ...}, with a unit word the reader might copy ({@code 64 KiB}, {@code 7
   * days}).
   */
  private static final Pattern BESIDE =
      Pattern.compile(
          "`(PAYRELAY_[A-Z0-9_]+)`(?: \\(|, )(\\d[^\\s,;)`]*(?: (?:[KMG]iB|B|days?|s|ms|min|h)\\b)?)");

  @Test
  void everySettingsValueInTheDocs_passesTheConfigurationsOwnValidation() {
    Set<String> settings =
        SettingsModel.settings().stream().map(Setting::env).collect(Collectors.toSet());
    List<String> refused = new ArrayList<>();
    int checked = 0;
    for (MarkdownDocs.Document doc : docs) {
      String text = String.join(" ", doc.lines()).replaceAll("\\s+", " ");
      for (Pattern p : List.of(ASSIGNED, BESIDE)) {
        Matcher m = p.matcher(text);
        while (m.find()) {
          String name = m.group(1);
          // A sentence's punctuation after the value is not part of it.
          String value = m.group(2).replaceAll("[.:,;)]+$", "");
          if (!settings.contains(name) || value.matches(".*[<>{}$\\[\\]].*")) {
            continue;
          }
          checked++;
          try {
            Binder.bind(Map.of(name, value));
          } catch (ConfigProblems e) {
            e.problems().stream()
                .filter(problem -> problem.contains(name))
                .forEach(problem -> refused.add(doc.path().getFileName() + ": " + problem));
          }
        }
      }
    }
    assertThat(checked).as("values checked").isGreaterThan(20);
    assertThat(refused).as("values the configuration refuses").isEmpty();
  }

  @Test
  void readme_isAtMost300Lines() throws Exception {
    List<String> lines = Files.readAllLines(MarkdownDocs.ROOT.resolve("README.md"));
    assertThat(lines.size()).as("README.md lines (the rest belongs in docs/)").isPositive();
    assertThat(lines.size()).as("README.md lines").isLessThanOrEqualTo(README_MAX_LINES);
  }

  @Test
  void githubAnchors_dropPunctuationAndCode_keepHyphensAndUnderscores() {
    assertThat(MarkdownDocs.slug("Find broken payments: `./payrelay check`"))
        .isEqualTo("find-broken-payments-payrelay-check");
    assertThat(MarkdownDocs.slug("2026-12-01 (third session): the JIT and the heap"))
        .isEqualTo("2026-12-01-third-session-the-jit-and-the-heap");
    assertThat(MarkdownDocs.slug("Memory over ten minutes (`s4-dev-10min`, `6e0dcf7`, `dev`)"))
        .isEqualTo("memory-over-ten-minutes-s4-dev-10min-6e0dcf7-dev");
    assertThat(MarkdownDocs.slug("payment_seq and [links](x.md)"))
        .isEqualTo("payment_seq-and-links");
  }

  @Test
  void commandCheck_refusesAnUnknownSubcommandOrOption_andAcceptsRealOnes() {
    assertThat(commandProblems("./payrelay outbox replay <eventId> --reason \"x\" # --bogus"))
        .containsOnly(OK);
    assertThat(commandProblems("  PAYRELAY_X=1 java -jar dist/target/payrelay.jar api"))
        .containsOnly(OK);
    assertThat(commandProblems("./payrelay outbox lst")).singleElement().asString().contains("lst");
    assertThat(commandProblems("./payrelay check --repiar"))
        .singleElement()
        .asString()
        .contains("--repiar");
    assertThat(commandProblems("payrelay: production mode refuses, make one with payrelay apikey"))
        .containsExactly(OK);
    assertThat(commandProblems("./payrelay test -Dtest=DocsTest")).containsExactly(OK);
    assertThat(commandProblems("java -jar dist/target/payrelay.jar test"))
        .singleElement()
        .asString()
        .contains("`payrelay test`: no such subcommand");
  }

  /**
   * Checks each {@code payrelay} command on {@code line} ({@code payrelay}, {@code ./payrelay} or
   * {@code .../payrelay.jar} followed by words): its words must walk the subcommand tree to a real
   * command, and each {@code --option} after them, up to the end of the command, must be one of
   * that command's.
   *
   * @return one entry per command on the line: {@link #OK} or what is wrong
   */
  private static List<String> commandProblems(String line) {
    String[] tokens = line.strip().split("\\s+");
    List<String> problems = new ArrayList<>();
    for (int i = 0; i < tokens.length; i++) {
      boolean launcher = tokens[i].equals("payrelay") || tokens[i].endsWith("/payrelay");
      if (!launcher && !tokens[i].endsWith("/payrelay.jar")) {
        continue;
      }
      if (launcher && i + 1 < tokens.length && LAUNCHER_COMMANDS.contains(tokens[i + 1])) {
        problems.add(OK);
        continue;
      }
      Walk walk = walk(tokens, i + 1);
      if (walk.command() == ROOT_COMMAND && walk.problem() == null) {
        continue; // "payrelay" as a word, not a command
      }
      int end = i + 1;
      while (end < tokens.length && !END_OF_COMMAND.contains(tokens[end])) {
        end++;
      }
      problems.add(walk.problem() != null ? walk.problem() : optionProblem(walk, tokens, end));
      i = end - 1;
    }
    return problems;
  }

  /** How far a command's words went down the subcommand tree, and what stopped them if wrong. */
  private record Walk(CommandLine command, String path, int next, String problem) {}

  /** Follows {@code tokens} from {@code from} down the subcommand tree while they are words. */
  private static Walk walk(String[] tokens, int from) {
    CommandLine command = ROOT_COMMAND;
    String path = "payrelay";
    int j = from;
    for (; j < tokens.length && !command.getSubcommands().isEmpty(); j++) {
      if (!WORD.matcher(tokens[j]).matches()) {
        break;
      }
      CommandLine sub = command.getSubcommands().get(tokens[j]);
      if (sub == null) {
        return new Walk(command, path, j, "`" + path + " " + tokens[j] + "`: no such subcommand");
      }
      command = sub;
      path += " " + tokens[j];
    }
    return new Walk(command, path, j, null);
  }

  /** {@link #OK}, or the first {@code --option} of {@code tokens[walk.next, end)} not walk's. */
  private static String optionProblem(Walk walk, String[] tokens, int end) {
    for (int j = walk.next(); j < end; j++) {
      String option = tokens[j].replaceAll("^[\\[(]+", "").replaceAll("[\\])]+$", "");
      String name = option.contains("=") ? option.substring(0, option.indexOf('=')) : option;
      if (name.startsWith("--")
          && name.length() > 2
          && walk.command().getCommandSpec().findOption(name) == null) {
        return "`" + walk.path() + "` has no option " + name;
      }
    }
    return OK;
  }

  /** What is wrong with {@code target} as a link from {@code doc}, or null when it leads there. */
  private static String linkProblem(MarkdownDocs.Document doc, String target) {
    int hash = target.indexOf('#');
    String file = hash < 0 ? target : target.substring(0, hash);
    String anchor = hash < 0 ? null : target.substring(hash + 1);
    Path resolved = file.isEmpty() ? doc.path() : doc.path().getParent().resolve(file).normalize();
    if (!Files.exists(resolved)) {
      return "no file " + MarkdownDocs.ROOT.relativize(resolved);
    }
    if (anchor == null || !resolved.toString().endsWith(".md")) {
      return null;
    }
    MarkdownDocs.Document linked =
        resolved.equals(doc.path().normalize()) ? doc : MarkdownDocs.read(resolved);
    return linked.heading(anchor) != null
        ? null
        : "no heading with anchor #"
            + anchor
            + " in "
            + MarkdownDocs.ROOT.relativize(resolved)
            + " (its anchors: "
            + linked.headings().stream().map(MarkdownDocs.Heading::anchor).toList()
            + ")";
  }

  /** Every subcommand, recursively, by its path ({@code outbox replay}). */
  private static Map<String, CommandLine> subcommandPaths() {
    Map<String, CommandLine> paths = new LinkedHashMap<>();
    collect(ROOT_COMMAND, "", paths);
    return paths;
  }

  private static void collect(CommandLine command, String prefix, Map<String, CommandLine> into) {
    for (CommandLine sub : command.getSubcommands().values()) {
      String path = prefix + sub.getCommandName();
      if (into.putIfAbsent(path, sub) == null) {
        collect(sub, path + " ", into);
      }
    }
  }

  private static String where(Path file, int line) {
    return MarkdownDocs.ROOT
            .toAbsolutePath()
            .normalize()
            .relativize(file.toAbsolutePath().normalize())
        + ":"
        + line;
  }
}

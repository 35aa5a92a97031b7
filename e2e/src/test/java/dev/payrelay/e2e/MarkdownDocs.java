package dev.payrelay.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The project's Markdown documentation read as GitHub renders it, for tests that hold code and docs
 * to each other: {@code README.md} and {@code docs/*.md} under the repository root, their headings
 * with GitHub's anchors, their fenced code blocks and their prose.
 */
final class MarkdownDocs {

  /** The repository root as seen from a module's tests (Surefire runs in the module folder). */
  static final Path ROOT = Path.of("..");

  private static final Pattern HEADING = Pattern.compile("^(#{1,6}) +(.+?) *#* *$");
  private static final Pattern INLINE_LINK = Pattern.compile("\\[([^\\]]*)\\]\\(([^)\\s]+)\\)");
  private static final Pattern CODE_SPAN = Pattern.compile("`([^`]+)`");

  private MarkdownDocs() {}

  /** One ATX heading: its text as written (with inline code) and its GitHub anchor. */
  record Heading(int level, String text, String anchor) {}

  /** One Markdown file split into fenced code and prose; line numbers are 1-based. */
  record Document(Path path, List<String> lines, List<Block> code, List<Block> prose) {

    /** The file's headings in order, each with its anchor made unique as GitHub does. */
    List<Heading> headings() {
      List<Heading> headings = new ArrayList<>();
      Map<String, Integer> seen = new HashMap<>();
      for (Block block : prose) {
        for (String line : block.text().split("\n", -1)) {
          Matcher m = HEADING.matcher(line);
          if (m.matches()) {
            String slug = slug(m.group(2));
            int n = seen.merge(slug, 1, Integer::sum) - 1;
            headings.add(
                new Heading(m.group(1).length(), m.group(2), n == 0 ? slug : slug + "-" + n));
          }
        }
      }
      return headings;
    }

    /** The heading whose anchor is {@code anchor}, or null when the file has none. */
    Heading heading(String anchor) {
      return headings().stream().filter(h -> h.anchor().equals(anchor)).findFirst().orElse(null);
    }

    /** The relative links of the prose ({@code [text](target)}), outside code spans. */
    List<Link> relativeLinks() {
      List<Link> links = new ArrayList<>();
      for (Block block : prose) {
        Matcher m = INLINE_LINK.matcher(CODE_SPAN.matcher(block.text()).replaceAll("code"));
        while (m.find()) {
          String target = m.group(2);
          if (!target.matches("^[a-z][a-z0-9+.-]*:.*")) {
            links.add(new Link(path, block.firstLine(), target));
          }
        }
      }
      return links;
    }

    /** The text of every code span of the prose, a span broken over lines joined by a space. */
    List<Block> codeSpans() {
      List<Block> spans = new ArrayList<>();
      for (Block block : prose) {
        Matcher m = CODE_SPAN.matcher(block.text());
        while (m.find()) {
          spans.add(new Block(block.firstLine(), m.group(1).replace('\n', ' ')));
        }
      }
      return spans;
    }
  }

  /** Consecutive lines of one kind: a fenced code block's content, or a paragraph of prose. */
  record Block(int firstLine, String text) {}

  /** A link {@code target} written in {@code file} near {@code line}. */
  record Link(Path file, int line, String target) {}

  /** {@code README.md} and every {@code docs/*.md}, README first. */
  static List<Document> all() {
    List<Document> docs = new ArrayList<>();
    docs.add(read(ROOT.resolve("README.md")));
    try (Stream<Path> files = Files.list(ROOT.resolve("docs"))) {
      files
          .filter(p -> p.getFileName().toString().endsWith(".md"))
          .sorted()
          .forEach(p -> docs.add(read(p)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return docs;
  }

  /**
   * {@code path} split into fenced code blocks (a line starting, after indentation, with three
   * backticks opens or closes one) and paragraphs of prose (separated by blank lines or fences).
   */
  static Document read(Path path) {
    List<String> lines;
    try {
      lines = Files.readAllLines(path);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<Block> code = new ArrayList<>();
    List<Block> prose = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    int start = 1;
    boolean fenced = false;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      boolean fence = line.strip().startsWith("```");
      if (fence || (!fenced && line.isBlank())) {
        flush(fenced ? code : prose, start, current);
        if (fence) {
          fenced = !fenced;
        }
        start = i + 2;
        continue;
      }
      if (current.isEmpty()) {
        start = i + 1;
      } else {
        current.append('\n');
      }
      current.append(line);
    }
    flush(fenced ? code : prose, start, current);
    return new Document(path, lines, code, prose);
  }

  private static void flush(List<Block> into, int start, StringBuilder text) {
    if (!text.isEmpty()) {
      into.add(new Block(start, text.toString()));
      text.setLength(0);
    }
  }

  /**
   * GitHub's anchor of a heading (github-slugger): the rendered text (code spans and emphasis marks
   * dropped, a link's text kept) in lower case, every character that is not a letter, a digit, a
   * mark, {@code _}, {@code -} or a space removed, and each space made a {@code -}.
   */
  static String slug(String heading) {
    String text = INLINE_LINK.matcher(heading).replaceAll("$1").replace("`", "").replace("*", "");
    return text.strip()
        .toLowerCase(Locale.ROOT)
        .replaceAll("[^\\p{L}\\p{N}\\p{M}\\p{Pc}\\- ]", "")
        .replace(' ', '-');
  }
}

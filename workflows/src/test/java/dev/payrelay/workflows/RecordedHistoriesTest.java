package dev.payrelay.workflows;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps the replay suite honest: recorded histories are append-only, and the version markers the
 * docs list are the ones the code uses. A recording rewritten to make a change pass would prove
 * nothing about the runs the earlier build wrote, so each committed recording's SHA-256 is listed
 * in {@code histories/MANIFEST.sha256} (the {@code sha256sum} format) and may never change: a new
 * branch or version gets a new file and a new line beside the old ones.
 */
class RecordedHistoriesTest {

  private static final Path FOLDER = Path.of("src", "test", "resources", "histories");
  private static final Path MANIFEST = FOLDER.resolve("MANIFEST.sha256");
  private static final Path SOURCES =
      Path.of("src", "main", "java", "dev", "payrelay", "workflows");
  private static final Path DOCS = Path.of("README.md");
  private static final Pattern LINE = Pattern.compile("([0-9a-f]{64}) {2}(\\S+\\.json)");
  private static final Pattern GET_VERSION =
      Pattern.compile("Workflow\\.getVersion\\(\\s*(\"[^\"]+\"|[A-Z_]+)\\s*,");
  private static final Pattern CONSTANT =
      Pattern.compile("static final String ([A-Z_]+)\\s*=\\s*\"([^\"]+)\"");
  private static final Pattern TABLE_ROW =
      Pattern.compile("^\\| `([a-z0-9-]+)` \\|", Pattern.MULTILINE);

  @Test
  void everyCommittedRecording_isListedWithItsHash_andNoneChangedOrDisappeared() throws Exception {
    Map<String, String> listed = manifest();
    Map<String, String> present = new TreeMap<>();
    try (Stream<Path> files = Files.list(FOLDER)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".json")).toList()) {
        present.put(file.getFileName().toString(), sha256(file));
      }
    }

    assertThat(listed.keySet())
        .as("recordings are append-only: a listed recording was deleted or renamed")
        .isSubsetOf(present.keySet());
    assertThat(present.keySet())
        .as(
            "a new recording must be added to %s (sha256sum file >> MANIFEST.sha256), never in"
                + " place of an old one",
            MANIFEST)
        .isSubsetOf(listed.keySet());
    for (Map.Entry<String, String> entry : listed.entrySet()) {
      assertThat(present.get(entry.getKey()))
          .as(
              "recordings are append-only: %s changed; record the new behaviour under a new name"
                  + " beside it",
              entry.getKey())
          .isEqualTo(entry.getValue());
    }
  }

  @Test
  void theDocsMarkerTable_listsExactlyTheVersionMarkersTheCodeUses() throws IOException {
    Set<String> inCode = new TreeSet<>();
    try (Stream<Path> files = Files.walk(SOURCES)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        inCode.addAll(changeIds(Files.readString(file)));
      }
    }
    String docs = Files.readString(DOCS);
    String table = docs.substring(docs.indexOf("## Version markers in use"));
    Set<String> documented = new TreeSet<>();
    Matcher row = TABLE_ROW.matcher(table);
    while (row.find()) {
      documented.add(row.group(1));
    }

    assertThat(inCode).as("change ids found in the code").hasSizeGreaterThanOrEqualTo(6);
    assertThat(documented).isEqualTo(inCode);
  }

  /** The change ids {@code source} passes to {@code Workflow.getVersion}, constants resolved. */
  static Set<String> changeIds(String source) {
    Map<String, String> constants = new TreeMap<>();
    Matcher constant = CONSTANT.matcher(source);
    while (constant.find()) {
      constants.put(constant.group(1), constant.group(2));
    }
    Set<String> ids = new TreeSet<>();
    Matcher call = GET_VERSION.matcher(source);
    while (call.find()) {
      String arg = call.group(1);
      ids.add(arg.startsWith("\"") ? arg.substring(1, arg.length() - 1) : constants.get(arg));
    }
    return ids;
  }

  private static Map<String, String> manifest() throws IOException {
    List<String> lines = Files.readAllLines(MANIFEST).stream().filter(l -> !l.isBlank()).toList();
    Map<String, String> listed = new TreeMap<>();
    for (String line : lines) {
      Matcher m = LINE.matcher(line);
      assertThat(m.matches()).as("manifest line %s", line).isTrue();
      assertThat(listed.put(m.group(2), m.group(1))).as("listed twice: %s", m.group(2)).isNull();
    }
    return listed;
  }

  private static String sha256(Path file) throws IOException {
    try {
      return HexFormat.of()
          .formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JDK", e);
    }
  }

  @Test
  void changeIds_resolveLiteralsAndConstants() {
    String source =
        """
        static final String CHANGE_ID = "some-change";
        int a = Workflow.getVersion(CHANGE_ID, Workflow.DEFAULT_VERSION, 1);
        int b = Workflow.getVersion("inline-change", Workflow.DEFAULT_VERSION, 2);
        """;
    assertThat(changeIds(source)).containsExactly("inline-change", "some-change");
  }
}

package dev.payrelay.app.config.binder;

import dev.payrelay.app.config.TemporalClientConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;

/**
 * Writes {@code docs/configuration-reference.md} from the mapping ({@link SettingsModel}), so the
 * reference cannot drift from the settings: each one's environment variable and file key, type,
 * default, bounds and description, then the renamed variables, the variables read outside the JVM,
 * and Temporal's own. {@code ConfigurationReferenceTest} fails when the committed file differs.
 */
public final class ConfigurationReference {

  /** The file, relative to the repository's root. */
  public static final Path FILE = Path.of("docs", "configuration-reference.md");

  /** The command that rewrites the file, as the test's failure names it. */
  public static final String REGENERATE =
      "./mvnw -B -o -q test -pl app -am -Dtest=ConfigurationReferenceTest"
          + " -Dsurefire.failIfNoSpecifiedTests=false -Dpayrelay.reference.write=true";

  private ConfigurationReference() {}

  /**
   * Writes the reference.
   *
   * @param args the file to write; default {@link #FILE}
   */
  public static void main(String[] args) throws IOException {
    Path target = args.length > 0 ? Path.of(args[0]) : FILE;
    Files.writeString(target, markdown(), StandardCharsets.UTF_8);
  }

  /** The reference's text. */
  public static String markdown() {
    StringBuilder md = new StringBuilder();
    md.append(ReferenceText.HEAD.replace("{regenerate}", REGENERATE));
    String group = null;
    // The top-level settings first, then each group's, each in name order.
    List<Setting> ordered =
        SettingsModel.settings().stream()
            .sorted(
                Comparator.comparing((Setting s) -> group(s.property()).contains("."))
                    .thenComparing(s -> group(s.property()))
                    .thenComparing(Setting::property))
            .toList();
    for (Setting s : ordered) {
      String g = group(s.property());
      if (!g.equals(group)) {
        group = g;
        md.append("\n### `").append(g).append("`\n\n");
        md.append("| Variable / file key | Type | Default | Bounds | Description |\n");
        md.append("|---|---|---|---|---|\n");
      }
      md.append(row(s));
    }
    md.append(ReferenceText.RENAMED_HEAD);
    Renamed.ALL.forEach(r -> md.append("| `%s` | `%s` |\n".formatted(r.oldName(), r.newName())));
    md.append(ReferenceText.EXTERNAL_HEAD);
    ExternalVariables.ALL.forEach(
        v ->
            md.append(
                "| `%s` | %s | %s |\n"
                    .formatted(v.name(), cell(v.readBy()), cell(v.description()))));
    md.append(ReferenceText.TEMPORAL_HEAD);
    for (TemporalClientConfig.TemporalVariable v : TemporalClientConfig.TEMPORAL_VARIABLES) {
      md.append(
          "| `%s` | %s | %s |\n"
              .formatted(
                  v.name(),
                  v.overriddenBy() == null ? "—" : "`" + v.overriddenBy() + "`",
                  cell(v.meaning())));
    }
    return md.toString();
  }

  /** {@code payrelay.db} for {@code payrelay.db.url}; {@code payrelay} for a top-level one. */
  private static String group(String property) {
    List<String> parts = List.of(property.split("\\."));
    return parts.size() > 2 ? parts.get(0) + "." + parts.get(1) : parts.get(0);
  }

  private static String row(Setting s) {
    Doc doc = s.doc();
    String bounds =
        doc.min().isEmpty() && doc.max().isEmpty()
            ? "—"
            : (doc.min().isEmpty() ? "" : doc.min())
                + ".."
                + (doc.max().isEmpty() ? "" : doc.max());
    if (!doc.step().isEmpty()) {
      bounds += ", step " + doc.step();
    }
    String description = doc.value() + (s.secret() ? " Secret: `payrelay config` masks it." : "");
    return "| `%s`<br>`%s` | %s | %s | %s | %s |\n"
        .formatted(
            s.env(),
            s.property(),
            cell(s.typeName()),
            s.defaultValue() != null ? "`" + cell(s.defaultValue()) + "`" : cell(s.defaultText()),
            bounds,
            cell(description));
  }

  /** Text fit for a table cell: pipes and angle brackets escaped. */
  private static String cell(String text) {
    return text.replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;");
  }
}

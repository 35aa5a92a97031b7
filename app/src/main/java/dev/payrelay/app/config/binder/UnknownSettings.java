package dev.payrelay.app.config.binder;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Refuses names that are no setting, which SmallRye Config would ignore: every {@code PAYRELAY_*}
 * environment variable and every key of the file must be a setting of the mapping ({@link
 * SettingsModel}), the file's own variable ({@link Binder#CONFIG_FILE}) or one of the {@link
 * ExternalVariables}. Each refusal names the nearest known name by edit distance, so {@code
 * PAYRELAY_API_PROT} says {@code PAYRELAY_API_PORT}; a renamed variable names its new name ({@link
 * Renamed}). A variable whose prefix is a near miss of {@code PAYRELAY_} ({@code PAYRELY_API_PORT})
 * is refused the same way ({@link #nearMisses}).
 */
final class UnknownSettings {

  /** The profiles a file section may be for, as {@code %dev}, {@code %test}, {@code %prod}. */
  static final Set<String> PROFILES = Set.copyOf(PayrelayConverters.PROFILES.names());

  private UnknownSettings() {}

  /** One refusal per unknown {@code PAYRELAY_*} variable of {@code env}, in name order. */
  static List<String> inEnvironment(Map<String, String> env) {
    Set<String> known = new TreeSet<>();
    SettingsModel.settings().forEach(s -> known.add(s.env()));
    List<String> problems = new ArrayList<>();
    for (String name : new TreeSet<>(env.keySet())) {
      if (known.contains(name)
          || name.equals(Binder.CONFIG_FILE)
          || ExternalVariables.isOne(name)) {
        continue;
      }
      problems.add(
          Renamed.of(name)
              .map(r -> r.refusal(env.get(name)))
              .orElseGet(
                  () ->
                      name
                          + " is not a payrelay setting; did you mean "
                          + nearest(name, known)
                          + "?"));
    }
    return problems;
  }

  /**
   * One refusal per variable of {@code env} whose name starts with a near miss of {@code prefix}
   * (Levenshtein distance 1 or 2 of its first {@code prefix.length()} ± 2 characters, as {@code
   * PAYRELY_API_PORT} or {@code PAYRELAYAPI_PORT}), in name order, naming the nearest setting in
   * the same words as {@link #inEnvironment}: without it such a variable is silently not read.
   */
  static List<String> nearMisses(Map<String, String> env, String prefix) {
    Set<String> known = new TreeSet<>();
    SettingsModel.settings().forEach(s -> known.add(s.env()));
    List<String> problems = new ArrayList<>();
    for (String name : new TreeSet<>(env.keySet())) {
      if (!name.startsWith(prefix) && nearMissOf(name, prefix)) {
        problems.add(
            name + " is not a payrelay setting; did you mean " + nearest(name, known) + "?");
      }
    }
    return problems;
  }

  private static boolean nearMissOf(String name, String prefix) {
    for (int k = prefix.length() - 2; k <= prefix.length() + 2 && k < name.length(); k++) {
      if (distance(name.substring(0, k), prefix) <= 2) {
        return true;
      }
    }
    return false;
  }

  /** One refusal per unknown key of the file {@code file}, whose keys are {@code keys}. */
  static List<String> inFile(String file, Collection<String> keys) {
    Set<String> known = new TreeSet<>();
    SettingsModel.settings().forEach(s -> known.add(s.property()));
    List<String> problems = new ArrayList<>();
    for (String key : new TreeSet<>(keys)) {
      String name = key;
      if (key.startsWith("%")) {
        int dot = key.indexOf('.');
        String profile = dot < 0 ? key.substring(1) : key.substring(1, dot);
        if (!PROFILES.contains(profile)) {
          problems.add(
              file + ": %" + profile + " is not a profile; the profiles are %dev, %test and %prod");
          continue;
        }
        name = dot < 0 ? "" : key.substring(dot + 1);
        if (name.equals("payrelay.profile")) {
          problems.add(
              file + ": " + key + ": the profile cannot be set inside a profile's section");
          continue;
        }
      }
      if (known.contains(name)) {
        continue;
      }
      problems.add(
          name.startsWith("payrelay.")
              ? file
                  + ": "
                  + key
                  + " is not a payrelay setting; did you mean "
                  + nearest(name, known)
                  + "?"
              : file
                  + ": "
                  + key
                  + " is outside payrelay.*; the file holds payrelay's settings only");
    }
    return problems;
  }

  /**
   * The name of {@code known} nearest to {@code name} (Levenshtein distance), the first on ties.
   */
  static String nearest(String name, Collection<String> known) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : known) {
      int d = distance(name, candidate);
      if (d < bestDistance) {
        best = candidate;
        bestDistance = d;
      }
    }
    return best;
  }

  /** The Levenshtein distance of {@code a} and {@code b}: insertions, deletions, substitutions. */
  static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitute, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}

package dev.payrelay.app.config.binder;

import java.util.List;

/**
 * The configuration is refused: every problem found, each one line that names its setting (and,
 * unless it is secret, the value). A single problem is the message itself; several are listed one
 * per line under a heading.
 */
public final class ConfigProblems extends IllegalArgumentException {

  private final transient List<String> problems;

  /**
   * The refusal of {@code problems}.
   *
   * @param problems at least one
   */
  public ConfigProblems(List<String> problems) {
    super(message(problems));
    this.problems = List.copyOf(problems);
  }

  /** The problems, one line each, in the order found. */
  public List<String> problems() {
    return problems;
  }

  private static String message(List<String> problems) {
    if (problems.isEmpty()) {
      throw new IllegalArgumentException("a refusal needs a problem");
    }
    if (problems.size() == 1) {
      return problems.get(0);
    }
    return "the configuration has "
        + problems.size()
        + " problems:\n  "
        + String.join("\n  ", problems);
  }
}

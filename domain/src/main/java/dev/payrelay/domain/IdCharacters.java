package dev.payrelay.domain;

/**
 * Which characters an identifier (tenant, order, user, channel, course, idempotency key, and the
 * admin filters on them) may not hold: control characters (Unicode category Cc), format characters
 * (Cf: among them the bidirectional controls U+200E/U+200F, U+202A..U+202E and U+2066..U+2069,
 * which make a log line or an operator's table show an id other than the one stored), line and
 * paragraph separators (Zl, Zp) and lone surrogates. None is needed in an id, and each can make two
 * ids look alike.
 */
public final class IdCharacters {

  private IdCharacters() {}

  /** Whether {@code codePoint} may not appear in an identifier. */
  public static boolean refused(int codePoint) {
    return switch (Character.getType(codePoint)) {
      case Character.CONTROL,
          Character.FORMAT,
          Character.LINE_SEPARATOR,
          Character.PARAGRAPH_SEPARATOR,
          Character.SURROGATE ->
          true;
      default -> false;
    };
  }

  /**
   * The first refused character of {@code text} as {@code U+202E}, or null when there is none.
   *
   * @param text an identifier, not null
   */
  public static String firstRefused(CharSequence text) {
    return text.codePoints()
        .filter(IdCharacters::refused)
        .mapToObj(cp -> String.format("U+%04X", cp))
        .findFirst()
        .orElse(null);
  }
}

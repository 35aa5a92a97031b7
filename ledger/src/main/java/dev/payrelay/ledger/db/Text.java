package dev.payrelay.ledger.db;

/** Fits operator-facing text into its column. */
public final class Text {

  /** The width of the {@code last_error} and {@code outcome_detail} columns. */
  static final int MAX_DETAIL = 2000;

  private Text() {}

  /** {@code s} cut to the declared length of {@code column}; null stays null. */
  public static String fit(String s, org.jooq.Field<String> column) {
    int length = column.getDataType().length();
    return s == null || length <= 0 || s.length() <= length ? s : s.substring(0, length);
  }

  /** {@code s} cut to {@link #MAX_DETAIL} characters; null stays null. */
  public static String truncate(String s) {
    return s == null || s.length() <= MAX_DETAIL ? s : s.substring(0, MAX_DETAIL);
  }
}

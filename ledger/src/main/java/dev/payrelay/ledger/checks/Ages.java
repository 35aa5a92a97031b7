package dev.payrelay.ledger.checks;

/** Ages for people: {@code 45s}, {@code 12m05s}, {@code 3h07m}, {@code 2d04h}. */
public final class Ages {

  private Ages() {}

  /** {@code seconds} (negative counts as 0) in its two largest units. */
  public static String of(long seconds) {
    long s = Math.max(0, seconds);
    if (s < 60) {
      return s + "s";
    }
    if (s < 3_600) {
      return String.format("%dm%02ds", s / 60, s % 60);
    }
    if (s < 86_400) {
      return String.format("%dh%02dm", s / 3_600, s % 3_600 / 60);
    }
    return String.format("%dd%02dh", s / 86_400, s % 86_400 / 3_600);
  }
}

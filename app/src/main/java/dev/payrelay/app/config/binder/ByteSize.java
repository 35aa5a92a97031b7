package dev.payrelay.app.config.binder;

/**
 * A size in bytes, written as a whole number and its unit: {@code 512B}, {@code 4KiB}, {@code
 * 64KiB}, {@code 16MiB}, {@code 1GiB} (IEC 80000-13 binary multiples; the unit in any case). The
 * one syntax of every size setting ({@link Syntax#size}).
 *
 * @param bytes the size, at least 0
 */
public record ByteSize(long bytes) implements Comparable<ByteSize> {

  /**
   * Checks the size.
   *
   * @throws IllegalArgumentException when negative
   */
  public ByteSize {
    if (bytes < 0) {
      throw new IllegalArgumentException("a size cannot be negative: " + bytes);
    }
  }

  /** The size as an {@code int}, for settings bounded well below 2 GiB. */
  public int intBytes() {
    return Math.toIntExact(bytes);
  }

  @Override
  public int compareTo(ByteSize other) {
    return Long.compare(bytes, other.bytes);
  }

  /** The size in the largest unit that writes it whole, e.g. {@code 64KiB}. */
  @Override
  public String toString() {
    return Syntax.formatSize(bytes);
  }
}

package dev.payrelay.amqp.consume;

import java.util.Map;

/** Reads AMQP header values that other clients, or a garbled message, may have set any way. */
final class HeaderValues {

  private HeaderValues() {}

  /**
   * The header {@code name} as an int: a number as it is, text parsed (trimmed); {@code absent}
   * when the header is missing or its text is no int.
   */
  static int intValue(Map<String, Object> headers, String name, int absent) {
    Object value = headers.get(name);
    if (value instanceof Number number) {
      return number.intValue();
    }
    if (value != null) {
      try {
        return Integer.parseInt(value.toString().trim());
      } catch (NumberFormatException ignored) {
        return absent;
      }
    }
    return absent;
  }
}

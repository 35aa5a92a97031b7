package dev.payrelay.api;

import dev.payrelay.domain.IdCharacters;

/** Checks of identifiers the API receives, in request bodies and in the admin filters. */
public final class ApiInput {

  private ApiInput() {}

  /**
   * An identifier: 1..maxLength characters, none of them one {@link IdCharacters} refuses (control,
   * format such as the bidirectional controls, line separators), and no blank at either end. The
   * ends matter because MySQL and MariaDB compare with PAD SPACE collations, where {@code 'k-1 '}
   * equals {@code 'k-1'}: two such keys would collide in a unique index (a 500) or, for an
   * Idempotency-Key, return another request's payment.
   *
   * @throws BadRequestException naming the field and what is wrong
   */
  public static void requireId(String value, String field, int maxLength) {
    require(
        value != null && !value.isBlank() && value.length() <= maxLength,
        field + " must be 1.." + maxLength + " characters");
    require(
        value.strip().equals(value),
        field + " must not start or end with a blank: " + quoted(value));
    String refused = IdCharacters.firstRefused(value);
    require(
        refused == null,
        field + " must not contain control or format characters (" + refused + ")");
  }

  /** {@link #requireId} for a filter that may be absent (null). */
  public static void optionalId(String value, String field, int maxLength) {
    if (value != null) {
      requireId(value, field, maxLength);
    }
  }

  private static String quoted(String value) {
    return "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  /** Throws {@link BadRequestException} with {@code message} unless {@code condition}. */
  public static void require(boolean condition, String message) {
    if (!condition) {
      throw new BadRequestException(message);
    }
  }
}

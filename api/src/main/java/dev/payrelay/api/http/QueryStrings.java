package dev.payrelay.api.http;

import dev.payrelay.api.BadRequestException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/**
 * Reads query parameters strictly. Refuses a query string whose percent-encoding is malformed: per
 * RFC 3986 §2.1 a {@code %} is followed by two hex digits. Javalin decodes such a parameter to
 * nothing, so without this check {@code pageToken=%%%} reads as an absent page token and the
 * request is served as if it had none.
 */
final class QueryStrings {

  private static final java.util.regex.Pattern ASCII_INTEGER =
      java.util.regex.Pattern.compile("-?[0-9]{1,19}");

  private QueryStrings() {}

  /**
   * Checks every {@code name=value} pair of a raw (undecoded) query string.
   *
   * @param query the request's query string, null when there is none
   * @throws BadRequestException naming the parameter whose name or value cannot be decoded
   */
  static void requireWellFormed(String query) {
    if (query == null) {
      return;
    }
    for (String pair : query.split("&")) {
      String[] nameAndValue = pair.split("=", 2);
      String name = decodes(nameAndValue[0]) ? decode(nameAndValue[0]) : null;
      if (name == null || (nameAndValue.length == 2 && !decodes(nameAndValue[1]))) {
        throw new BadRequestException(
            (name == null ? "a query parameter's name" : name)
                + " is not valid percent-encoding (RFC 3986 §2.1: % must be followed by two hex"
                + " digits; encode a literal % as %25)");
      }
    }
  }

  /**
   * A whole-number query parameter within {@code min..max}. Parsed as a {@code long} and checked
   * before any narrowing, so {@code limit=4294967297} is refused instead of wrapping around to 1.
   *
   * @param value the decoded parameter, null when absent
   * @return {@code fallback} when absent, else the value
   * @throws BadRequestException for anything but an integer within the range, naming the parameter,
   *     the range and what was sent
   */
  static long integer(String value, String name, long fallback, long min, long max) {
    if (value == null) {
      return fallback;
    }
    // ASCII digits only: Long.parseLong also reads other scripts' digits (١٠, ５) as numbers.
    if (ASCII_INTEGER.matcher(value).matches()) {
      try {
        long n = Long.parseLong(value);
        if (n >= min && n <= max) {
          return n;
        }
      } catch (NumberFormatException e) {
        // Past a long: refused below, like a number out of range.
      }
    }
    throw new BadRequestException(
        name + " must be an integer " + min + ".." + max + ", got " + value);
  }

  private static boolean decodes(String text) {
    try {
      decode(text);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static String decode(String text) {
    return URLDecoder.decode(text, StandardCharsets.UTF_8);
  }
}

package dev.payrelay.api;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/**
 * Refuses a query string whose percent-encoding is malformed: per RFC 3986 §2.1 a {@code %} is
 * followed by two hex digits. Javalin decodes such a parameter to nothing, so without this check
 * {@code pageToken=%%%} reads as an absent page token and the request is served as if it had none.
 */
final class QueryStrings {

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

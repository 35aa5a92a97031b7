package dev.payrelay.channels.alipay;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;

/**
 * {@code application/x-www-form-urlencoded} bodies as Alipay sends them (WHATWG URL "application/
 * x-www-form-urlencoded"): {@code k=v} pairs joined by {@code &}, percent-encoded bytes of the
 * charset named in the body's own {@code charset} field ({@code utf-8}, {@code gbk} or {@code
 * gb2312} per the open API's common request parameters).
 */
public final class AlipayForm {

  private AlipayForm() {}

  /**
   * The {@code charset} field of a raw body, read before anything is decoded: the field's name and
   * value are ASCII, and every other byte of a well-formed body is percent-encoded ASCII.
   *
   * @return the charset; empty when the body has no {@code charset} field
   * @throws IllegalArgumentException if the field names a charset other than UTF-8, GBK or GB2312
   */
  public static Optional<Charset> declaredCharset(byte[] raw) {
    for (String pair : new String(raw, StandardCharsets.ISO_8859_1).split("&")) {
      int eq = pair.indexOf('=');
      if (eq > 0 && pair.substring(0, eq).equals("charset")) {
        String name = URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.ISO_8859_1);
        return Optional.of(supported(name));
      }
    }
    return Optional.empty();
  }

  /**
   * Decodes every field of a raw body with {@code charset}; {@code +} is a space.
   *
   * @return the fields in body order
   * @throws IllegalArgumentException for a bad percent escape, a pair without {@code =}, or a field
   *     named twice (a signature covers one value per name)
   */
  public static Map<String, String> decode(byte[] raw, Charset charset) {
    Map<String, String> fields = new LinkedHashMap<>();
    String body = new String(raw, StandardCharsets.ISO_8859_1);
    if (body.isEmpty()) {
      return fields;
    }
    for (String pair : body.split("&", -1)) {
      int eq = pair.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("not a k=v pair: " + pair);
      }
      String name = URLDecoder.decode(pair.substring(0, eq), charset);
      String value = URLDecoder.decode(pair.substring(eq + 1), charset);
      if (fields.put(name, value) != null) {
        throw new IllegalArgumentException("field named twice: " + name);
      }
    }
    return fields;
  }

  /** Encodes fields as a form body (names and values percent-encoded in {@code charset}). */
  public static String encode(Map<String, String> fields, Charset charset) {
    StringJoiner body = new StringJoiner("&");
    fields.forEach(
        (name, value) ->
            body.add(URLEncoder.encode(name, charset) + "=" + URLEncoder.encode(value, charset)));
    return body.toString();
  }

  /**
   * Resolves a charset name Alipay may declare.
   *
   * @throws IllegalArgumentException for any other name
   */
  public static Charset supported(String name) {
    return switch (name.toLowerCase(Locale.ROOT)) {
      case "utf-8", "utf8" -> StandardCharsets.UTF_8;
      case "gbk" -> Charset.forName("GBK");
      case "gb2312" -> Charset.forName("GB2312");
      default -> throw new IllegalArgumentException("charset not supported by Alipay: " + name);
    };
  }
}

package dev.payrelay.tools.bench;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The values of one replayed operation in place of the recorded one's ({@link RecordedStatement}):
 * the recorded payment id (also inside longer text, e.g. {@code sbx_bench_<id>} or a JSON payload)
 * becomes this operation's; every UUID of the recorded values (an event id) a fresh one, the same
 * wherever it occurs; the recorded generated key (the inbox row's id) the key this operation's
 * insert got. Text is replaced in {@code String}s and in UTF-8 {@code byte[]}s (the raw callback
 * body); every other value stays as recorded. One per operation; not thread-safe.
 */
final class Substitution {

  private static final Pattern UUID_TEXT =
      Pattern.compile(
          "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

  private final Map<String, String> texts;
  private final long recordedKey;
  private Long key;

  private Substitution(Map<String, String> texts, long recordedKey) {
    this.texts = texts;
    this.recordedKey = recordedKey;
  }

  /**
   * The substitution for one operation.
   *
   * @param recordedValues every bind value of the recorded operation, where its UUIDs are found
   * @param recordedPaymentId the recorded operation's payment id
   * @param paymentId this operation's
   * @param recordedKey the key the recorded operation's insert got
   */
  static Substitution of(
      List<Object> recordedValues, String recordedPaymentId, String paymentId, long recordedKey) {
    Map<String, String> texts = new LinkedHashMap<>();
    texts.put(recordedPaymentId, paymentId);
    for (Object v : recordedValues) {
      String text =
          v instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : String.valueOf(v);
      Matcher m = UUID_TEXT.matcher(text);
      while (m.find()) {
        if (!recordedPaymentId.contains(m.group())) {
          texts.putIfAbsent(m.group(), UUID.randomUUID().toString());
        }
      }
    }
    return new Substitution(texts, recordedKey);
  }

  /** Records the key this operation's insert got, for the statements after it. */
  void generatedKey(long generated) {
    key = generated;
  }

  /** {@code recorded} with this operation's values. */
  Object apply(Object recorded) {
    if (recorded instanceof String s) {
      return replace(s);
    }
    if (recorded instanceof byte[] b) {
      String text = new String(b, StandardCharsets.UTF_8);
      String replaced = replace(text);
      return replaced.equals(text) ? b : replaced.getBytes(StandardCharsets.UTF_8);
    }
    if (key != null && recorded instanceof Long n && n == recordedKey) {
      return key;
    }
    return recorded;
  }

  private String replace(String s) {
    String out = s;
    for (Map.Entry<String, String> e : texts.entrySet()) {
      if (out.contains(e.getKey())) {
        out = out.replace(e.getKey(), e.getValue());
      }
    }
    return out;
  }
}

package dev.payrelay.amqp.consume;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.GetResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Reads a quarantined message's headers, and strips them off for its replay. */
final class QuarantineHeaders {

  private static final SecureRandom SECURE = new SecureRandom();

  /**
   * Headers describing the quarantine, not the event: ours, and the broker's dead-letter history
   * and redelivery count (RabbitMQ dead-lettering docs: {@code x-death}, {@code x-first-death-*},
   * {@code x-last-death-*}; quorum queues: {@code x-delivery-count}).
   */
  static final Set<String> QUARANTINE_ONLY =
      Set.of(
          InboxConsumer.REASON_HEADER,
          InboxConsumer.DETAIL_HEADER,
          InboxConsumer.CONSUMER_HEADER,
          InboxConsumer.QUARANTINED_AT_HEADER,
          InboxConsumer.ENTRY_HEADER,
          InboxConsumer.ATTEMPT_HEADER,
          "x-death",
          "x-first-death-reason",
          "x-first-death-queue",
          "x-first-death-exchange",
          "x-last-death-reason",
          "x-last-death-queue",
          "x-last-death-exchange",
          "x-delivery-count");

  private QuarantineHeaders() {}

  /** The operator's view of {@code r}. */
  static QuarantinedMessage describe(GetResponse r) {
    Map<String, Object> headers = headersOf(r.getProps());
    QuarantineReason reason = QuarantineReason.of(headers);
    return new QuarantinedMessage(
        entryId(r),
        r.getProps().getMessageId(),
        r.getProps().getType(),
        originalRoutingKey(r),
        reason == null ? text(headers.get(InboxConsumer.REASON_HEADER)) : reason.name(),
        text(headers.get(InboxConsumer.DETAIL_HEADER)),
        text(headers.get(InboxConsumer.QUARANTINED_AT_HEADER)),
        HeaderValues.intValue(headers, InboxConsumer.ATTEMPT_HEADER, 1),
        r.getBody() == null ? 0 : r.getBody().length);
  }

  /**
   * {@code r}'s properties as first published: the same {@code message_id}, type, content type,
   * delivery mode and other headers, without {@link #QUARANTINE_ONLY} (so the consumer starts a
   * fresh retry budget at attempt 1) and with {@value InboxConsumer#ROUTING_KEY_HEADER} set to the
   * original routing key, which the handler sees instead of the work queue's name.
   */
  static AMQP.BasicProperties forReplay(GetResponse r) {
    Map<String, Object> headers = new HashMap<>(headersOf(r.getProps()));
    String routingKey = originalRoutingKey(r);
    headers.keySet().removeAll(QUARANTINE_ONLY);
    headers.put(InboxConsumer.ROUTING_KEY_HEADER, routingKey);
    return r.getProps().builder().headers(headers).expiration(null).build();
  }

  /**
   * Ours if set; else, for a message the broker dead-lettered straight from the work queue (its
   * {@code x-dead-letter-routing-key} replaced the key), the oldest {@code x-death} entry's first
   * routing key; else the key it reached the quarantine queue with.
   */
  static String originalRoutingKey(GetResponse r) {
    Map<String, Object> headers = headersOf(r.getProps());
    Object ours = headers.get(InboxConsumer.ROUTING_KEY_HEADER);
    if (ours != null) {
      return ours.toString();
    }
    if (headers.get("x-death") instanceof List<?> deaths
        && !deaths.isEmpty()
        && deaths.get(deaths.size() - 1) instanceof Map<?, ?> oldest
        && oldest.get("routing-keys") instanceof List<?> keys
        && !keys.isEmpty()) {
      return String.valueOf(keys.get(0));
    }
    return r.getEnvelope().getRoutingKey();
  }

  /** A fresh entry id: 16 lowercase hex digits, random (64 bits). */
  static String newEntryId() {
    return HexFormat.of().toHexDigits(SECURE.nextLong());
  }

  /**
   * {@code r}'s entry id: its {@value InboxConsumer#ENTRY_HEADER} header; for a message that has
   * none (the broker dead-lettered it itself at its delivery limit, or it was quarantined before
   * entry ids), the first 16 hex digits of SHA-256 over its {@code message_id} and body, the same
   * at every look (two identical copies share it; either is the one addressed).
   */
  static String entryId(GetResponse r) {
    Object ours = headersOf(r.getProps()).get(InboxConsumer.ENTRY_HEADER);
    if (ours != null && !ours.toString().isBlank()) {
      return ours.toString();
    }
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      String id = r.getProps().getMessageId();
      sha.update((id == null ? "" : id).getBytes(StandardCharsets.UTF_8));
      sha.update((byte) 0);
      sha.update(r.getBody() == null ? new byte[0] : r.getBody());
      return HexFormat.of().formatHex(sha.digest()).substring(0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  private static Map<String, Object> headersOf(AMQP.BasicProperties properties) {
    return properties.getHeaders() == null ? Map.of() : properties.getHeaders();
  }

  private static String text(Object value) {
    return value == null ? null : value.toString();
  }
}

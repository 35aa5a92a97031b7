package dev.payrelay.devstack;

import com.fasterxml.jackson.databind.JsonNode;
import com.rabbitmq.client.GetResponse;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;

/**
 * The lines of {@link Demo}'s trail, from the API's payment view ({@code GET /v1/payments/{id}}:
 * {@code payment}, {@code events}, {@code entitlements}) and the message read from the bound queue,
 * each led by its name padded to eleven characters. Tests and the docs read these lines: a change
 * to one is a change of the demo's interface.
 */
final class DemoTrail {

  private DemoTrail() {}

  /** The payment's status, channel transaction id and paid_at. */
  static void payment(PrintStream out, JsonNode payment) {
    out.printf(
        "payment    %s status=%s channel_txn_id=%s paid_at=%s%n",
        texts(payment, "paymentId", "status", "channelTxnId", "paidAt"));
  }

  /**
   * One line per outbox event.
   *
   * @return the (last) {@code PaymentConfirmed} event's id, or null when there is none
   */
  static String events(PrintStream out, JsonNode events) {
    each(
        out,
        "event      %s %s status=%s sent_at=%s%n",
        events,
        "eventId",
        "eventType",
        "status",
        "sentAt");
    String confirmedId = null;
    for (JsonNode e : events) {
      if ("PaymentConfirmed".equals(e.path("eventType").asText())) {
        confirmedId = e.path("eventId").asText();
      }
    }
    return confirmedId;
  }

  /** The message as read from {@code queue}: routing key, message id, type and body. */
  static void message(PrintStream out, String queue, GetResponse message) {
    out.printf(
        "message    queue=%s routing_key=%s message_id=%s type=%s body=%s%n",
        queue,
        message.getEnvelope().getRoutingKey(),
        message.getProps().getMessageId(),
        message.getProps().getType(),
        new String(message.getBody(), StandardCharsets.UTF_8));
  }

  /**
   * One line per granted entitlement.
   *
   * @return the latest {@code grantedAt}, or null when there is none
   */
  static Instant grants(PrintStream out, JsonNode entitlements) {
    each(
        out,
        "granted    user=%s course=%s purchase=%s at=%s%n",
        entitlements,
        "userId",
        "courseId",
        "purchaseId",
        "grantedAt");
    Instant lastGrant = null;
    for (JsonNode g : entitlements) {
      Instant at = Instant.parse(g.path("grantedAt").asText());
      lastGrant = lastGrant == null || at.isAfter(lastGrant) ? at : lastGrant;
    }
    return lastGrant;
  }

  /** A line of {@code format} for each of {@code nodes}, filled with its {@code fields}' texts. */
  private static void each(PrintStream out, String format, JsonNode nodes, String... fields) {
    nodes.forEach(node -> out.printf(format, texts(node, fields)));
  }

  /** The text of each of {@code node}'s {@code fields}, in order; "" for a missing one. */
  private static Object[] texts(JsonNode node, String... fields) {
    return Arrays.stream(fields).map(f -> node.path(f).asText()).toArray();
  }
}

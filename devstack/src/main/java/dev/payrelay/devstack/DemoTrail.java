package dev.payrelay.devstack;

import com.fasterxml.jackson.databind.JsonNode;
import com.rabbitmq.client.GetResponse;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;

/**
 * The lines of {@link Demo}'s trail, from the API's payment view ({@code GET /v1/payments/{id}}:
 * {@code payment}, {@code events}, {@code entitlements}), its refund ({@code GET
 * /v1/refunds/{refundId}}) and the messages read from the bound queue, each led by its name padded
 * to eleven characters. Tests and the docs read these lines: a change to one is a change of the
 * demo's interface.
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
    events.forEach(e -> event(out, e));
    String confirmedId = null;
    for (JsonNode e : events) {
      if ("PaymentConfirmed".equals(e.path("eventType").asText())) {
        confirmedId = e.path("eventId").asText();
      }
    }
    return confirmedId;
  }

  /** One outbox event: id, type, status and sent_at. */
  static void event(PrintStream out, JsonNode event) {
    out.printf(
        "event      %s %s status=%s sent_at=%s%n",
        texts(event, "eventId", "eventType", "status", "sentAt"));
  }

  /** The refund as requested: id, number, amount in minor units, currency and state. */
  static void refund(PrintStream out, JsonNode refund) {
    out.printf(
        "refund     %s number=%s amount_minor=%s currency=%s state=%s%n",
        refund.path("refundId").asText(),
        refund.path("refundNo").asText(),
        refund.path("amount").path("minorUnits").asText(),
        refund.path("amount").path("currency").asText(),
        refund.path("state").asText());
  }

  /** The refund once settled: id, state, the channel's refund id and succeeded_at. */
  static void refunded(PrintStream out, JsonNode refund) {
    out.printf(
        "refunded   %s state=%s channel_refund_id=%s succeeded_at=%s%n",
        texts(refund, "refundId", "state", "channelRefundId", "succeededAt"));
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
    return latest(entitlements, "grantedAt");
  }

  /**
   * One line per revoked entitlement.
   *
   * @return the latest {@code revokedAt}, or null when there is none
   */
  static Instant revocations(PrintStream out, JsonNode entitlements) {
    each(
        out,
        "revoked    user=%s course=%s purchase=%s at=%s by_refund=%s%n",
        entitlements,
        "userId",
        "courseId",
        "purchaseId",
        "revokedAt",
        "revokedByRefund");
    return latest(entitlements, "revokedAt");
  }

  /** The latest of the {@code field} instants of {@code nodes}, or null when there is none. */
  private static Instant latest(JsonNode nodes, String field) {
    Instant last = null;
    for (JsonNode n : nodes) {
      Instant at = Instant.parse(n.path(field).asText());
      last = last == null || at.isAfter(last) ? at : last;
    }
    return last;
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

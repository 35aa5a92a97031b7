package dev.payrelay.channels.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.ChannelRefundResult;
import dev.payrelay.domain.channel.ChannelRefundStatus;
import dev.payrelay.domain.channel.RefundReport;
import java.util.Map;

/**
 * Reads the refund fields the sandbox writes alike in its refund answers and in {@link
 * SandboxRefundNotification}s: {@code refund_id}, {@code refund_no} (null for a dashboard refund),
 * {@code amount} (decimal in major units) with {@code currency}, {@code status} and {@code
 * failure_reason}. Every failure is an {@link IllegalArgumentException} naming the field.
 */
final class SandboxRefundJson {

  /**
   * The refund statuses the sandbox documents. Any other reads as PENDING: nothing is applied on
   * it, and a query asks again, so a status the sandbox adds can never count as money moved.
   */
  private static final Map<String, ChannelRefundStatus> STATUSES =
      Map.of(
          "SUCCEEDED", ChannelRefundStatus.SUCCEEDED,
          "FAILED", ChannelRefundStatus.FAILED,
          "PENDING", ChannelRefundStatus.PENDING);

  private SandboxRefundJson() {}

  /** The refund as a callback reports it. */
  static RefundReport report(JsonNode node) {
    ChannelRefundStatus status = status(node);
    return new RefundReport(
        SandboxJson.text(node, "refund_id"),
        SandboxJson.optionalText(node, "refund_no").orElse(null),
        amount(node),
        status,
        failureReason(node, status));
  }

  /** The refund as a submit or query answers it. */
  static ChannelRefundResult result(JsonNode node) {
    ChannelRefundStatus status = status(node);
    return new ChannelRefundResult(
        SandboxJson.text(node, "refund_no"),
        status,
        SandboxJson.text(node, "refund_id"),
        amount(node),
        failureReason(node, status));
  }

  private static ChannelRefundStatus status(JsonNode node) {
    return STATUSES.getOrDefault(SandboxJson.text(node, "status"), ChannelRefundStatus.PENDING);
  }

  private static Money amount(JsonNode node) {
    return Money.parse(SandboxJson.text(node, "amount"), SandboxJson.text(node, "currency"));
  }

  /** The sandbox's words for a FAILED refund ("failed" when it gave none), else null. */
  private static String failureReason(JsonNode node, ChannelRefundStatus status) {
    return status == ChannelRefundStatus.FAILED
        ? SandboxJson.optionalText(node, "failure_reason").orElse("failed")
        : null;
  }
}

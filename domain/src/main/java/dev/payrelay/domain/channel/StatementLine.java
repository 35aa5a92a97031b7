package dev.payrelay.domain.channel;

import dev.payrelay.domain.Money;
import java.time.Instant;

/**
 * One transaction in a channel's statement.
 *
 * @param channelTxnId the channel's transaction id (for a refund: the channel's refund id, the same
 *     id its refund answers and notifications carry)
 * @param paymentId our payment id as the channel knows it, or null if it names none we could know
 * @param kind {@code PAYMENT} or {@code REFUND}
 * @param amount the amount moved, in minor units (for a refund: what went back, positive)
 * @param status the transaction's state at the channel (PAID for a settled payment, REFUNDED for a
 *     refund)
 * @param occurredAt when it happened at the channel
 * @param refundNo for a REFUND line, our refund number when the statement carries it (Stripe {@code
 *     metadata.refund_no}, Alipay 退款批次号/请求号, WeChat Pay 商户退款单号, the sandbox's {@code refund_no});
 *     null for a payment, or a refund made outside payrelay
 */
public record StatementLine(
    String channelTxnId,
    String paymentId,
    String kind,
    Money amount,
    ChannelPaymentStatus status,
    Instant occurredAt,
    String refundNo) {

  /** The {@link #kind} of a payment line. */
  public static final String PAYMENT = "PAYMENT";

  /** The {@link #kind} of a refund line. */
  public static final String REFUND = "REFUND";

  /** A line that carries no refund number (every payment line). */
  public StatementLine(
      String channelTxnId,
      String paymentId,
      String kind,
      Money amount,
      ChannelPaymentStatus status,
      Instant occurredAt) {
    this(channelTxnId, paymentId, kind, amount, status, occurredAt, null);
  }

  /** Whether this is a refund line. */
  public boolean isRefund() {
    return REFUND.equals(kind);
  }
}

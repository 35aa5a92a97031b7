package dev.payrelay.workflows.activities;

/**
 * The result of a refund's submit or query ({@link RefundActivities}), already applied to the
 * ledger.
 *
 * @param status what the refund came to: {@code SUCCEEDED}, {@code PENDING}, {@code FAILED}, {@code
 *     UNKNOWN} (a submit whose answer is not known: a timeout, a 5xx, or a submission found begun
 *     but never answered) or, for a query only, {@code NOT_FOUND} (the channel holds no refund with
 *     our number)
 * @param channelRefundId the channel's refund id when known, else null
 * @param detail the channel's words: a failure reason, the error that made the result unknown; else
 *     null
 * @param refundState the refund's state in the ledger afterwards (a {@code RefundState} name)
 * @param channelCalled whether this activity called the channel; false when the ledger had already
 *     settled the refund or the submission was found begun before (never sent twice)
 */
public record RefundAnswer(
    String status,
    String channelRefundId,
    String detail,
    String refundState,
    boolean channelCalled) {

  /** Whether the ledger holds the refund SUCCEEDED or FAILED. */
  public boolean settled() {
    return "SUCCEEDED".equals(refundState) || "FAILED".equals(refundState);
  }
}

package dev.payrelay.workflows.activities;

/**
 * What the ledger (our database, the truth) says about a refund when a run asks.
 *
 * @param refundId our refund id
 * @param state a {@code dev.payrelay.domain.RefundState} name: {@code REQUESTED}, {@code
 *     SUBMITTED}, {@code UNKNOWN}, {@code SUCCEEDED} or {@code FAILED}
 * @param channelRefundId the channel's refund id once known, else null
 * @param failureReason the channel's (or operator's) reason when FAILED, else null
 * @param submissions how many times it was submitted to the channel: 0, 1 or 2
 */
public record RefundLedgerView(
    String refundId, String state, String channelRefundId, String failureReason, int submissions) {

  /** Whether the ledger holds the refund SUCCEEDED or FAILED: nothing is asked of the channel. */
  public boolean settled() {
    return "SUCCEEDED".equals(state) || "FAILED".equals(state);
  }
}

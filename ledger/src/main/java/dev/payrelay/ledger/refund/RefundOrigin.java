package dev.payrelay.ledger.refund;

/** Where a refund was started, as stored in {@code refund.origin} (V15). */
public enum RefundOrigin {
  /**
   * Requested through payrelay ({@code POST /v1/payments/{id}/refunds}) under our refund number.
   */
  API,
  /**
   * Made at the channel (e.g. in its dashboard) and first learnt of from its report: recorded by
   * {@link RefundReports} with {@code requested_by} {@value RefundReports#REQUESTED_BY_CHANNEL}, a
   * refund number of ours the channel never saw, and a {@code REFUND_NOT_REQUESTED} exception.
   */
  CHANNEL
}

package dev.payrelay.workflows;

/**
 * A refund's story as its workflow tells it; the value of the {@code RefundState} search attribute.
 * The first five mirror the ledger's {@code RefundState}; NEEDS_ATTENTION is shown instead while an
 * operator is needed (unsettled past the attention threshold, NOT_FOUND after the resubmission, a
 * submit that cannot be made, a DEAD event).
 */
public enum RefundWorkflowState {
  /** Recorded; not yet sent to the channel. */
  REQUESTED,
  /** The channel accepted it and has not finished it; queried with backoff. */
  SUBMITTED,
  /** Whether the channel has it is not known; queried by our refund number, never re-sent. */
  UNKNOWN,
  /** The money went back. */
  SUCCEEDED,
  /** The channel (or an operator) failed it; its amount can be refunded again. */
  FAILED,
  /** Waits for an operator: requery, acceptAsRefunded or markFailed. */
  NEEDS_ATTENTION
}

package dev.payrelay.workflows.activities;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/**
 * The refund workflow's ledger reads, channel calls and operator actions. Type names are prefixed
 * {@code Refund}. Every result is stored (the refund's row, its {@code refund_submission} rows, the
 * {@code operator_action} row) before it is returned, so a retry after a commit returns the same.
 */
@ActivityInterface(namePrefix = "Refund")
public interface RefundActivities {

  /**
   * Reads the refund's standing in the ledger; a run reads it before it acts (DESIGN invariant 11).
   * Read-only.
   *
   * @throws io.temporal.failure.ApplicationFailure {@code REFUND_NOT_FOUND} (non-retryable)
   */
  @ActivityMethod
  RefundLedgerView read(RefundCallRequest request);

  /**
   * Submits the refund to its channel once per attempt, with our refund number as the channel's
   * idempotency key: first commits the refund UNKNOWN with the attempt's {@code refund_submission}
   * row, then calls the channel (through the merchant account the payment was created with), then
   * records the answer (SUCCEEDED, PENDING, FAILED with the channel's reason, or UNKNOWN for a
   * timeout, 5xx or unreadable answer; a non-retryable refusal of the request's shape is FAILED
   * with the channel's text on the first attempt, UNKNOWN on the resubmission, whose unanswered
   * predecessor may have made the refund) on the row and the refund in one transaction. A retry, or
   * a run after a crash following the call, finds the row and never calls the channel again: it
   * answers the stored result, or UNKNOWN when none was recorded. A refund the ledger already
   * settled, or not in a state that allows this attempt, is not sent.
   *
   * @throws io.temporal.failure.ApplicationFailure {@code REFUND_NOT_FOUND} (non-retryable), {@code
   *     CHANNEL_REFUSED} (non-retryable; nothing written) when no merchant account is configured
   *     for the payment
   */
  @ActivityMethod
  RefundAnswer submit(SubmitRefundRequest request);

  /**
   * Asks the channel about the refund by our refund number and applies the answer (PENDING: an
   * UNKNOWN refund becomes SUBMITTED; SUCCEEDED or FAILED: the outcome); NOT_FOUND changes nothing.
   * A refund the ledger already settled is answered from the ledger without a call.
   *
   * @throws io.temporal.failure.ApplicationFailure {@code CHANNEL_UNAVAILABLE} (retryable: the
   *     refund's state stays unknown), {@code CHANNEL_REFUSED} or {@code REFUND_NOT_FOUND} (not)
   */
  @ActivityMethod
  RefundAnswer query(RefundCallRequest request);

  /**
   * Applies (or refuses) an operator's signal with its {@code operator_action} audit row in one
   * transaction: {@code ACCEPT_AS_REFUNDED} records the refund SUCCEEDED with the evidence as the
   * channel refund id, {@code MARK_FAILED} FAILED, {@code REQUERY} is audited only. Refused once
   * the ledger settled the refund; in production, {@code ACCEPT_AS_REFUNDED} and {@code
   * MARK_FAILED} are refused without a valid signal token. Idempotent by the request's action key.
   */
  @ActivityMethod
  RefundResolveResult resolve(RefundResolveRequest request);
}

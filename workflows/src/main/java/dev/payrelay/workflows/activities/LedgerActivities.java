package dev.payrelay.workflows.activities;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/** Ledger transactions a payment's workflow runs itself. Type names are prefixed {@code Ledger}. */
@ActivityInterface(namePrefix = "Ledger")
public interface LedgerActivities {

  /**
   * Reads the payment's standing in the ledger: a run reads it before it acts, so it never works
   * from a previous run's memory (DESIGN invariant 11). Read-only.
   *
   * @throws io.temporal.failure.ApplicationFailure {@code PAYMENT_NOT_FOUND} (non-retryable) when
   *     there is no such payment
   */
  @ActivityMethod
  LedgerView read(ReadPaymentRequest request);

  /**
   * Applies the channel's answer to a query with the same ledger transaction a callback uses
   * (source QUERY): one PaymentConfirmed at most; a later callback is a DUPLICATE.
   *
   * @return the callback outcome name: {@code CONFIRMED} whenever the ledger holds the payment PAID
   *     by this very transaction and amount (whether this attempt, an earlier attempt that
   *     committed before a crash, or a callback wrote it), so a retry answers what the first
   *     attempt did; otherwise e.g. {@code AMOUNT_MISMATCH} or {@code ALREADY_CLOSED}
   */
  @ActivityMethod
  String confirmFromChannel(ConfirmFromChannelRequest request);

  /**
   * Marks a PENDING payment EXPIRED (with a {@code PaymentClosed} event, source EXPIRY) after the
   * channel closed it or never knew it.
   *
   * @return the payment's status afterwards ({@code EXPIRED}, or PAID/CLOSED if it moved first)
   */
  @ActivityMethod
  String expire(ExpireRequest request);

  /**
   * Audits an operator's {@code requery} or {@code extendDeadline} (REJECTED when invalid) and, for
   * a valid extension of a PENDING payment, moves {@code expires_at}. Idempotent by the request's
   * action key: a retry returns the stored result.
   *
   * @return the audit row and whether it applied
   */
  @ActivityMethod
  OperatorRequestResult operatorRequest(OperatorRequest request);
}

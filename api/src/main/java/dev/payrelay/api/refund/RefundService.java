package dev.payrelay.api.refund;

import dev.payrelay.api.ApiInput;
import dev.payrelay.api.NotFoundException;
import dev.payrelay.api.auth.ApiKey;
import dev.payrelay.domain.crash.CrashPoint;
import dev.payrelay.domain.crash.CrashPoints;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.ledger.refund.RefundRequests;
import dev.payrelay.ledger.refund.RefundRow;
import dev.payrelay.ledger.refund.RefundStore;
import dev.payrelay.ledger.refund.RequestedRefund;
import dev.payrelay.temporal.client.WorkflowInspection;
import java.util.List;

/**
 * Refunds as a caller's API key may see and ask for them: a payment or refund of a tenant the key
 * may not act for is answered as missing ({@link NotFoundException}), so a key learns nothing about
 * other tenants.
 */
public final class RefundService {

  private final RefundRequests requests;
  private final RefundStore refunds;
  private final PaymentStore payments;
  private final Runnable outboxCommitted;
  private final WorkflowInspection workflows;
  private final CrashPoints crashPoints;

  /**
   * A service over the ledger's refunds.
   *
   * @param outboxCommitted called after a new refund and its RefundRequested event committed
   * @param workflows reads a refund's workflow for {@link #detail}; null when the API runs without
   *     a Temporal client
   * @param crashPoints passes {@link CrashPoint#REFUND_REQUEST_AFTER_COMMIT} once a new refund and
   *     its RefundRequested event committed, before the caller gets its answer
   */
  public RefundService(
      RefundRequests requests,
      RefundStore refunds,
      PaymentStore payments,
      Runnable outboxCommitted,
      WorkflowInspection workflows,
      CrashPoints crashPoints) {
    this.requests = requests;
    this.refunds = refunds;
    this.payments = payments;
    this.outboxCommitted = outboxCommitted;
    this.workflows = workflows;
    this.crashPoints = crashPoints;
  }

  /**
   * Requests a refund of the caller's payment ({@link RefundRequests#request}), recorded as asked
   * by the key's operator and id.
   *
   * @throws dev.payrelay.api.BadRequestException for a missing body, amount, reason or
   *     Idempotency-Key
   * @throws NotFoundException for no such payment, or another tenant's
   * @throws dev.payrelay.ledger.refund.RefundRefused when the ledger refuses it
   */
  public RequestedRefund request(
      String paymentId, RefundRequest body, String idempotencyKey, ApiKey caller) {
    ApiInput.require(idempotencyKey != null, "the Idempotency-Key header is required");
    ApiInput.requireId(idempotencyKey, "Idempotency-Key", 128);
    ApiInput.require(body != null, "a JSON body is required");
    ApiInput.require(
        body.amountMinor() != null && body.amountMinor() > 0,
        "amountMinor must be a positive integer");
    ApiInput.require(
        body.reason() != null && !body.reason().isBlank() && body.reason().length() <= 500,
        "reason is required, at most 500 characters");
    PaymentRow payment = payment(paymentId, caller);
    RequestedRefund r =
        requests.request(
            payment.tenantId(),
            paymentId,
            body.amountMinor(),
            body.reason(),
            idempotencyKey,
            caller.operator() + " (key " + caller.id() + ")");
    if (r.created()) {
      crashPoints.reach(CrashPoint.REFUND_REQUEST_AFTER_COMMIT);
      outboxCommitted.run();
    }
    return r;
  }

  /**
   * The refunds of the caller's payment, oldest first.
   *
   * @throws NotFoundException for no such payment, or another tenant's
   */
  public List<RefundRow> ofPayment(String paymentId, ApiKey caller) {
    return refunds.ofPayment(payment(paymentId, caller).paymentId());
  }

  /**
   * One refund of a payment of the caller's tenants.
   *
   * @throws NotFoundException for no such refund, or another tenant's
   */
  public RefundRow refund(String refundId, ApiKey caller) {
    return refunds
        .find(refundId)
        .filter(r -> caller.mayActFor(r.tenantId()))
        .orElseThrow(() -> new NotFoundException("no refund " + refundId));
  }

  /**
   * One refund of a payment of the caller's tenants, with its workflow as Temporal answers (each
   * Temporal call bounded by {@link WorkflowInspection}'s deadlines; its failures are named in the
   * workflow part, never thrown).
   *
   * @throws NotFoundException for no such refund, or another tenant's
   */
  public RefundDetail detail(String refundId, ApiKey caller) {
    RefundRow row = refund(refundId, caller);
    return new RefundDetail(row, workflows == null ? null : workflows.refund(row.refundId()));
  }

  private PaymentRow payment(String paymentId, ApiKey caller) {
    return payments
        .find(paymentId)
        .filter(p -> caller.mayActFor(p.tenantId()))
        .orElseThrow(() -> new NotFoundException("no payment " + paymentId));
  }
}

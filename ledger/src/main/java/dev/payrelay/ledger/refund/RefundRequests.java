package dev.payrelay.ledger.refund;

import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;
import static dev.payrelay.ledger.db.generated.Tables.REFUND;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.domain.PaymentTransition;
import dev.payrelay.domain.RefundIds;
import dev.payrelay.domain.RefundState;
import dev.payrelay.domain.event.EventType;
import dev.payrelay.domain.event.RefundRequested;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.db.Transactions;
import dev.payrelay.ledger.db.UniqueKeys;
import dev.payrelay.ledger.db.generated.tables.records.PaymentOrderRecord;
import dev.payrelay.ledger.db.generated.tables.records.RefundRecord;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.refund.RefundRefused.Reason;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;

/**
 * Records refund requests (issue 28 item 1). One local transaction per request: it locks the
 * payment's row ({@code SELECT ... FOR UPDATE} on {@code payment_order}), checks that the payment
 * is PAID or PARTIALLY_REFUNDED and that its refunds not FAILED plus this one stay within the
 * captured amount, inserts the refund REQUESTED with its refund number, and writes its {@code
 * RefundRequested} outbox event (DESIGN invariant 3). Concurrent requests for one payment queue on
 * the row lock, so each sees the refunds committed before it: of two full refunds exactly one is
 * accepted.
 */
public final class RefundRequests {

  private static final String IDEMPOTENCY_KEY = "uk_refund_idempotency";
  private static final int MAX_REQUESTED_BY = 128;

  private final DSLContext dsl;
  private final RefundStore refunds;
  private final OutboxWriter outbox;

  /** Requests over {@code dsl}, announced through {@code outbox}. */
  public RefundRequests(DSLContext dsl, OutboxWriter outbox) {
    this.dsl = dsl;
    this.refunds = new RefundStore(dsl);
    this.outbox = outbox;
  }

  /**
   * Checks a refund request's own fields as {@link #request} does, without the database: a client
   * (the CLI) refuses bad input before it sends anything or prints the Idempotency-Key it would
   * send.
   *
   * @param amountMinor in the payment's currency's minor units; positive
   * @param reason 1 to 500 characters
   * @param idempotencyKey 1 to 128 characters, no control or format characters ({@link
   *     dev.payrelay.domain.IdCharacters})
   * @throws RefundRefused INVALID naming the first bad field
   */
  public static void checkFields(
      String paymentId, long amountMinor, String reason, String idempotencyKey) {
    RefundAsk.check(paymentId, amountMinor, reason, idempotencyKey);
  }

  /**
   * Requests a refund of {@code amountMinor} of the payment, or answers the refund an earlier
   * request with the same Idempotency-Key and body made.
   *
   * @param tenantId the tenant the payment must belong to (the caller may act for it)
   * @param amountMinor the amount to give back in minor units of the currency the channel captured
   *     (the payment's, unless an operator accepted the channel's other currency); positive
   * @param reason why, free text of at most 500 characters
   * @param idempotencyKey the request's Idempotency-Key, unique per tenant; at most 128 characters
   * @param requestedBy who asks (the API key's operator and id), at most 128 characters
   * @throws RefundRefused INVALID for bad fields, NOT_FOUND for no payment of this tenant,
   *     NOT_REFUNDABLE when it is not PAID or PARTIALLY_REFUNDED, EXCEEDS_CAPTURE naming the
   *     captured, already refunded or held, and asked amounts, KEY_REUSED for the key with another
   *     body
   */
  public RequestedRefund request(
      String tenantId,
      String paymentId,
      long amountMinor,
      String reason,
      String idempotencyKey,
      String requestedBy) {
    RefundAsk ask = RefundAsk.of(tenantId, paymentId, amountMinor, reason, idempotencyKey);
    RefundAsk.requireText(requestedBy, "requestedBy", MAX_REQUESTED_BY);
    try {
      return Transactions.run(dsl, cfg -> request(cfg.dsl(), ask, requestedBy));
    } catch (DataAccessException e) {
      if (!UniqueKeys.isViolationOf(e, IDEMPOTENCY_KEY)) {
        throw e;
      }
      // The same key, committed meanwhile by a request for another payment (or this one).
      return earlier(dsl, ask).orElseThrow(() -> e);
    }
  }

  private RequestedRefund request(DSLContext tx, RefundAsk ask, String requestedBy) {
    PaymentOrderRecord payment = lockPayment(tx, ask);
    Optional<RequestedRefund> earlier = earlier(tx, ask);
    if (earlier.isPresent()) {
      return earlier.get();
    }
    requireRefundable(payment);
    long held = heldMinor(tx, ask.paymentId(), null);
    Money captured = OwnCapture.of(payment);
    // Compared with what remains, never summed: held + a huge amount would overflow past the cap.
    if (ask.amountMinor() > captured.minorUnits() - held) {
      throw new RefundRefused(
          Reason.EXCEEDS_CAPTURE,
          "refund of "
              + ask.amountMinor()
              + " would exceed the captured "
              + captured.minorUnits()
              + " "
              + captured.currencyCode()
              + " (minor units, what the channel took for this payment): "
              + held
              + " already refunded or in progress, "
              + (captured.minorUnits() - held)
              + " refundable");
    }
    return created(tx, ask, payment, null, requestedBy);
  }

  /**
   * Money the channel took beyond the purchase, to give back (V17): a DOUBLE_PAYMENT's second
   * transaction, money the channel took for a payment never marked PAID, or the part of the
   * payment's own transaction above the payment's amount.
   *
   * @param channelTxnId the channel's transaction that took it
   * @param captured what the channel captured in that transaction, in minor units of its currency
   * @param refundableMinor how much of it is to give back at most, in the same minor units (all of
   *     {@code captured}, or the over-payment)
   */
  public record OtherCapture(String channelTxnId, Money captured, long refundableMinor) {

    /** All of {@code captured} is to give back. */
    public OtherCapture(String channelTxnId, Money captured) {
      this(channelTxnId, captured, captured.minorUnits());
    }
  }

  /**
   * Requests a refund of all that remains refundable of one capture of the payment, inside the
   * caller's transaction {@code tx} (an operator's {@code MARK_FOR_REFUND}, whose audit row commits
   * with it), or answers the refund an earlier request with the same Idempotency-Key made. The
   * payment's row lock is taken (again) first, as in {@link #request}.
   *
   * <p>With {@code capture} null it is the payment's own capture: the payment must be PAID or
   * PARTIALLY_REFUNDED and the amount is its captured amount less its refunds not FAILED. With a
   * capture it is that transaction's amount less the refunds not FAILED held against it, in its
   * currency, whatever the payment's status; the refund row names the transaction.
   *
   * @param reason why, at most 500 characters
   * @param idempotencyKey unique per tenant, at most 128 characters; derive it from the operator
   *     action's key so a retried action makes one refund
   * @param requestedBy who asks, at most 128 characters
   * @throws RefundRefused NOT_FOUND for no payment, NOT_REFUNDABLE for an own capture of a payment
   *     not PAID or PARTIALLY_REFUNDED, EXCEEDS_CAPTURE when nothing of the capture is left to give
   *     back, INVALID for bad fields, KEY_REUSED for the key with another body
   */
  public RequestedRefund requestRemainingIn(
      DSLContext tx,
      String paymentId,
      OtherCapture capture,
      String reason,
      String idempotencyKey,
      String requestedBy) {
    RefundAsk.requireText(requestedBy, "requestedBy", MAX_REQUESTED_BY);
    PaymentOrderRecord payment =
        tx.selectFrom(PAYMENT_ORDER)
            .where(PAYMENT_ORDER.PAYMENT_ID.eq(paymentId))
            .forUpdate()
            .fetchOptional()
            .orElseThrow(() -> new RefundRefused(Reason.NOT_FOUND, "no payment " + paymentId));
    Optional<RefundRecord> earlier = refunds.byKey(tx, payment.getTenantId(), idempotencyKey);
    if (earlier.isPresent()) {
      return new RequestedRefund(RefundStore.toRow(earlier.get()), false);
    }
    if (capture == null) {
      requireRefundable(payment);
    }
    String txn = capture == null ? null : capture.channelTxnId();
    long captured =
        capture == null ? OwnCapture.of(payment).minorUnits() : capture.refundableMinor();
    long remaining = captured - heldMinor(tx, paymentId, txn);
    if (remaining <= 0) {
      throw new RefundRefused(
          Reason.EXCEEDS_CAPTURE,
          "already refunded in full: the refunds not FAILED of "
              + (txn == null ? "the payment's capture" : "channel transaction " + txn)
              + " add up to its "
              + captured
              + " minor units");
    }
    RefundAsk ask =
        RefundAsk.of(payment.getTenantId(), paymentId, remaining, reason, idempotencyKey);
    return created(tx, ask, payment, capture, requestedBy);
  }

  /** Inserts the refund REQUESTED with its {@code RefundRequested} event. */
  private RequestedRefund created(
      DSLContext tx,
      RefundAsk ask,
      PaymentOrderRecord payment,
      OtherCapture capture,
      String requestedBy) {
    RefundRecord row = insert(tx, ask, payment, capture, requestedBy);
    outbox.appendPaymentEvent(
        tx,
        EventType.REFUND_REQUESTED,
        ask.paymentId(),
        row.getRefundId(),
        new RefundRequested(
            row.getRefundId(),
            row.getRefundNo(),
            row.getPaymentId(),
            row.getTenantId(),
            payment.getChannel(),
            row.getAmountMinor(),
            row.getCurrency(),
            row.getReason(),
            row.getRequestedBy()),
        RefundRequested.VERSION);
    return new RequestedRefund(RefundStore.toRow(row), true);
  }

  /** The payment of this tenant, locked until commit; NOT_FOUND for none (or another tenant's). */
  private static PaymentOrderRecord lockPayment(DSLContext tx, RefundAsk ask) {
    return tx.selectFrom(PAYMENT_ORDER)
        .where(PAYMENT_ORDER.PAYMENT_ID.eq(ask.paymentId()))
        .and(PAYMENT_ORDER.TENANT_ID.eq(ask.tenantId()))
        .forUpdate()
        .fetchOptional()
        .orElseThrow(() -> new RefundRefused(Reason.NOT_FOUND, "no payment " + ask.paymentId()));
  }

  /**
   * The payment's refunds not FAILED held against one capture, in minor units: the payment's own
   * ({@code channelTxnId} null, refunds without a {@code channel_txn_id}) or another transaction's.
   * A locking read: at REPEATABLE READ a plain read could answer from a snapshot older than the row
   * lock, missing a refund committed by the request the lock waited for.
   */
  static long heldMinor(DSLContext tx, String paymentId, String channelTxnId) {
    return tx
        .select(REFUND.AMOUNT_MINOR)
        .from(REFUND)
        .where(REFUND.PAYMENT_ID.eq(paymentId))
        .and(
            channelTxnId == null
                ? REFUND.CHANNEL_TXN_ID.isNull()
                : REFUND.CHANNEL_TXN_ID.eq(channelTxnId))
        .and(REFUND.STATE.ne(RefundState.FAILED.name()))
        .forUpdate()
        .fetch(REFUND.AMOUNT_MINOR)
        .stream()
        .mapToLong(Long::longValue)
        .sum();
  }

  /** The refund of an earlier request with this key; KEY_REUSED when its body differed. */
  private Optional<RequestedRefund> earlier(DSLContext tx, RefundAsk ask) {
    Optional<RefundRecord> found = refunds.byKey(tx, ask.tenantId(), ask.idempotencyKey());
    if (found.isEmpty()) {
      return Optional.empty();
    }
    if (!found.get().getRequestHash().equals(ask.requestHash())) {
      throw new RefundRefused(
          Reason.KEY_REUSED,
          "Idempotency-Key "
              + ask.idempotencyKey()
              + " was already used for refund "
              + found.get().getRefundId()
              + " with a different request");
    }
    return Optional.of(new RequestedRefund(RefundStore.toRow(found.get()), false));
  }

  private static RefundRecord insert(
      DSLContext tx,
      RefundAsk ask,
      PaymentOrderRecord payment,
      OtherCapture capture,
      String requestedBy) {
    String refundId = RefundIds.mintId();
    tx.insertInto(REFUND)
        .set(REFUND.REFUND_ID, refundId)
        .set(REFUND.REFUND_NO, RefundIds.mintNumber())
        .set(REFUND.PAYMENT_ID, ask.paymentId())
        .set(REFUND.TENANT_ID, ask.tenantId())
        .set(REFUND.AMOUNT_MINOR, ask.amountMinor())
        .set(
            REFUND.CURRENCY,
            capture == null
                ? OwnCapture.of(payment).currencyCode()
                : capture.captured().currencyCode())
        .set(REFUND.CHANNEL_TXN_ID, capture == null ? null : capture.channelTxnId())
        .set(REFUND.TXN_AMOUNT_MINOR, capture == null ? null : capture.captured().minorUnits())
        .set(REFUND.REASON, ask.reason())
        .set(REFUND.STATE, RefundState.REQUESTED.name())
        .set(REFUND.IDEMPOTENCY_KEY, ask.idempotencyKey())
        .set(REFUND.REQUEST_HASH, ask.requestHash())
        .set(REFUND.REQUESTED_BY, requestedBy)
        .set(REFUND.ORIGIN, RefundOrigin.API.name())
        .set(REFUND.CREATED_AT, SqlTime.now())
        .set(REFUND.UPDATED_AT, SqlTime.now())
        .execute();
    return tx.selectFrom(REFUND).where(REFUND.REFUND_ID.eq(refundId)).fetchSingle();
  }

  /** A refund may be asked in the states a refund move starts from: PAID, PARTIALLY_REFUNDED. */
  private static void requireRefundable(PaymentOrderRecord payment) {
    PaymentStatus status = PaymentStatus.valueOf(payment.getStatus());
    if (!PaymentTransition.REFUND_FULLY.startsFrom(status)) {
      throw new RefundRefused(
          Reason.NOT_REFUNDABLE,
          "payment "
              + payment.getPaymentId()
              + " is "
              + status
              + "; only a PAID or PARTIALLY_REFUNDED payment can be refunded");
    }
  }
}

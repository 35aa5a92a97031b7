package dev.payrelay.ledger.reconciliation;

import dev.payrelay.ledger.checks.RepairKind;

/**
 * A kind of discrepancy between a channel's statement and our tables, with its repair. Stored in
 * {@code reconciliation_item.kind}; the kinds that record a {@code payment_exception} use their
 * name as its {@code kind}, so the four a callback can also produce (AMOUNT_MISMATCH,
 * CURRENCY_MISMATCH, DOUBLE_PAYMENT, PAID_AFTER_CLOSE) share the callback's dedupe key and are
 * never recorded twice.
 */
public enum ReconciliationKind {
  /** The channel says PAID, ours is PENDING: the callback was lost. */
  PAID_NOT_CONFIRMED(RepairKind.QUERY_AND_CONFIRM, false),
  /** The channel says PAID, ours is CLOSED or EXPIRED. */
  PAID_AFTER_CLOSE(RepairKind.EXCEPTION, true),
  /** The channel's amount (minor units) differs from ours. */
  AMOUNT_MISMATCH(RepairKind.REVIEW, true),
  /** The channel's currency differs from ours. */
  CURRENCY_MISMATCH(RepairKind.REVIEW, true),
  /** Ours is PAID by another channel transaction than the statement's for the same payment. */
  DOUBLE_PAYMENT(RepairKind.REVIEW, true),
  /** Ours is PAID by this transaction but the statement lists it with another status. */
  STATUS_MISMATCH(RepairKind.REVIEW, true),
  /** A transaction naming no payment of ours on this channel: no payment to attach it to. */
  UNKNOWN_TRANSACTION(RepairKind.REVIEW, false),
  /** A refund in the statement; payrelay records no refunds yet, so each one is reviewed. */
  UNRECORDED_REFUND(RepairKind.REVIEW, false),
  /** Ours is PAID but some purchased course has no entitlement row. */
  ENTITLEMENT_MISSING(RepairKind.REGRANT, false),
  /** Ours is PAID on the statement's day but the statement has no record of it. */
  MISSING_FROM_STATEMENT(RepairKind.REVIEW, true);

  private final RepairKind repair;
  private final boolean recordsException;

  ReconciliationKind(RepairKind repair, boolean recordsException) {
    this.repair = repair;
    this.recordsException = recordsException;
  }

  /** The repair this kind calls for. */
  public RepairKind repair() {
    return repair;
  }

  /** Whether finding it also records a {@code payment_exception} on the payment. */
  public boolean recordsException() {
    return recordsException;
  }
}

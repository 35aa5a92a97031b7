package dev.payrelay.ledger.reconciliation;

import dev.payrelay.ledger.checks.RepairKind;

/**
 * A kind of discrepancy between a channel's statement and our tables, with its repair. Stored in
 * {@code reconciliation_item.kind}; the kinds that record a {@code payment_exception} use their
 * name as its {@code kind}, so the four a callback can also produce (AMOUNT_MISMATCH,
 * CURRENCY_MISMATCH, DOUBLE_PAYMENT, PAID_AFTER_CLOSE) share the callback's dedupe key and are
 * never recorded twice. A refund gap's {@code channel_txn_id} is the channel's refund id, and its
 * item names our refund ({@code refund_id}, V20) when there is one.
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
  /**
   * A refund in the statement naming no refund of ours (made in the channel's dashboard): recorded
   * once as a CHANNEL-origin refund, flagged REFUND_NOT_REQUESTED like its callback would be. Items
   * recorded before refunds were reconciled keep their REVIEW repair.
   */
  UNRECORDED_REFUND(RepairKind.RECORD_CHANNEL_REFUND, false),
  /**
   * A refund in the statement that ours has not recorded SUCCEEDED (REQUESTED, SUBMITTED or
   * UNKNOWN): the refund is queried at the channel by our refund number and its answer applied.
   */
  REFUND_NOT_CONFIRMED(RepairKind.QUERY_REFUND, false),
  /**
   * A refund in the statement whose amount or currency differs from our refund's, or whose refund
   * is FAILED here (the channel says the money went back): an exception for review, never applied.
   */
  REFUND_MISMATCH(RepairKind.REVIEW, true),
  /** Ours is PAID but some purchased course has no entitlement row. */
  ENTITLEMENT_MISSING(RepairKind.REGRANT, false),
  /** Ours is PAID on the statement's day but the statement has no record of it. */
  MISSING_FROM_STATEMENT(RepairKind.REVIEW, true),
  /**
   * Our refund SUCCEEDED on the statement's day (succeeded_at in its window) but the statement has
   * no record of it: an exception for review, never an automatic change.
   */
  REFUND_MISSING_FROM_STATEMENT(RepairKind.REVIEW, true);

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

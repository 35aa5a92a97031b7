package dev.payrelay.ledger.refund;

import static dev.payrelay.ledger.db.generated.Tables.REFUND;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.RefundState;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.db.generated.tables.records.RefundRecord;
import java.util.List;
import java.util.Optional;
import org.jooq.DSLContext;

/** Reads refunds; every write is {@link RefundRequests}' or {@link RefundOutcomes}'. */
public final class RefundStore {

  private final DSLContext dsl;

  /** A store over {@code dsl}. */
  public RefundStore(DSLContext dsl) {
    this.dsl = dsl;
  }

  /** The refund {@code refundId}; empty when there is none. */
  public Optional<RefundRow> find(String refundId) {
    return dsl.selectFrom(REFUND)
        .where(REFUND.REFUND_ID.eq(refundId))
        .fetchOptional()
        .map(RefundStore::toRow);
  }

  /** The payment's refunds, oldest first (ix_refund_payment); empty for none or no payment. */
  public List<RefundRow> ofPayment(String paymentId) {
    return dsl.selectFrom(REFUND)
        .where(REFUND.PAYMENT_ID.eq(paymentId))
        .orderBy(REFUND.CREATED_AT, REFUND.REFUND_ID)
        .fetch(RefundStore::toRow);
  }

  /** The refund requested under {@code (tenantId, idempotencyKey)} (uk_refund_idempotency). */
  Optional<RefundRecord> byKey(DSLContext tx, String tenantId, String idempotencyKey) {
    return tx.selectFrom(REFUND)
        .where(REFUND.TENANT_ID.eq(tenantId))
        .and(REFUND.IDEMPOTENCY_KEY.eq(idempotencyKey))
        .fetchOptional();
  }

  /** Maps a {@code refund} record to its row. */
  public static RefundRow toRow(RefundRecord r) {
    return new RefundRow(
        r.getRefundId(),
        r.getRefundNo(),
        r.getPaymentId(),
        r.getTenantId(),
        Money.ofMinor(r.getAmountMinor(), r.getCurrency()),
        r.getReason(),
        RefundState.valueOf(r.getState()),
        r.getChannelRefundId(),
        r.getFailureReason(),
        r.getRequestedBy(),
        RefundOrigin.valueOf(r.getOrigin()),
        SqlTime.utc(r.getCreatedAt()),
        SqlTime.utc(r.getUpdatedAt()),
        SqlTime.utc(r.getSucceededAt()),
        r.getChannelTxnId(),
        r.getTxnAmountMinor());
  }
}

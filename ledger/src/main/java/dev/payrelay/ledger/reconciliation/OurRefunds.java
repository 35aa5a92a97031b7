package dev.payrelay.ledger.reconciliation;

import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;
import static dev.payrelay.ledger.db.generated.Tables.REFUND;

import dev.payrelay.domain.RefundState;
import dev.payrelay.domain.channel.StatementLine;
import dev.payrelay.ledger.db.generated.tables.records.RefundRecord;
import dev.payrelay.ledger.refund.RefundRow;
import dev.payrelay.ledger.refund.RefundStore;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/** The reads reconciliation compares a statement's refund lines with: our {@code refund} rows. */
final class OurRefunds {

  /** The states of a refund whose outcome we have not recorded yet. */
  private static final List<String> OPEN =
      List.of(
          RefundState.REQUESTED.name(), RefundState.SUBMITTED.name(), RefundState.UNKNOWN.name());

  private final DSLContext dsl;

  OurRefunds(DSLContext dsl) {
    this.dsl = dsl;
  }

  /**
   * The refund a REFUND line names: by the channel's refund id among the channel's payments (of
   * {@code account}'s payments when it is not null), else by our refund number when the line
   * carries it ({@code uk_refund_no}). Empty when neither names exactly one refund of ours.
   */
  Optional<RefundRow> of(String channel, String account, StatementLine line) {
    Optional<RefundRow> byChannelId =
        one(REFUND.CHANNEL_REFUND_ID.eq(line.channelTxnId()), channel, account);
    if (byChannelId.isPresent() || line.refundNo() == null) {
      return byChannelId;
    }
    return one(REFUND.REFUND_NO.eq(line.refundNo()), channel, account);
  }

  /**
   * The payment's oldest refund the channel could know under another id than ours can find: not
   * SUCCEEDED or FAILED, not bound to a channel refund id, of {@code line}'s amount. A line naming
   * neither our number nor a bound id may be that refund (its submit answer lost), so it is
   * queried, never recorded as a second refund.
   */
  Optional<RefundRow> unboundOpen(String paymentId, StatementLine line) {
    return dsl.selectFrom(REFUND)
        .where(REFUND.PAYMENT_ID.eq(paymentId))
        .and(REFUND.STATE.in(OPEN))
        .and(REFUND.CHANNEL_REFUND_ID.isNull())
        .and(REFUND.AMOUNT_MINOR.eq(line.amount().minorUnits()))
        .and(REFUND.CURRENCY.eq(line.amount().currencyCode()))
        .orderBy(REFUND.CREATED_AT, REFUND.REFUND_ID)
        .limit(1)
        .fetchOptional(RefundStore::toRow);
  }

  /**
   * The channel's refunds SUCCEEDED on a day of {@code zone} ({@code succeeded_at}, stored in UTC,
   * in {@code [date 00:00, date + 1 00:00)} of that zone), oldest first (ix_refund_succeeded).
   */
  List<RefundRow> succeededOn(String channel, LocalDate date, ZoneId zone) {
    return dsl.select(REFUND.fields())
        .from(REFUND)
        .join(PAYMENT_ORDER)
        .on(PAYMENT_ORDER.PAYMENT_ID.eq(REFUND.PAYMENT_ID))
        .where(REFUND.STATE.eq(RefundState.SUCCEEDED.name()))
        .and(REFUND.SUCCEEDED_AT.ge(OurRecords.utc(date, zone)))
        .and(REFUND.SUCCEEDED_AT.lt(OurRecords.utc(date.plusDays(1), zone)))
        .and(PAYMENT_ORDER.CHANNEL.eq(channel))
        .orderBy(REFUND.SUCCEEDED_AT, REFUND.REFUND_ID)
        .fetch(r -> RefundStore.toRow(r.into(REFUND)));
  }

  private Optional<RefundRow> one(Condition match, String channel, String account) {
    List<RefundRecord> found =
        dsl.select(REFUND.fields())
            .from(REFUND)
            .join(PAYMENT_ORDER)
            .on(PAYMENT_ORDER.PAYMENT_ID.eq(REFUND.PAYMENT_ID))
            .where(match)
            .and(PAYMENT_ORDER.CHANNEL.eq(channel))
            .and(account == null ? DSL.noCondition() : PAYMENT_ORDER.MERCHANT_ID.eq(account))
            .limit(2)
            .fetch(r -> r.into(REFUND));
    return found.size() == 1 ? Optional.of(RefundStore.toRow(found.getFirst())) : Optional.empty();
  }
}

package dev.payrelay.ledger.reconciliation;

import static dev.payrelay.ledger.db.generated.Tables.RECONCILIATION_ITEM;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.ledger.checks.RepairKind;
import dev.payrelay.ledger.checks.RepairStatus;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.db.Text;
import dev.payrelay.ledger.db.UniqueKeys;
import dev.payrelay.ledger.db.generated.tables.records.ReconciliationItemRecord;
import java.time.LocalDate;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;

/**
 * The {@code reconciliation_item} table. A gap is inserted under the unique key {@code (channel,
 * statement_date, kind, channel_txn_id)}; a duplicate-key error means "already recorded" and the
 * existing row is returned (DESIGN invariant 4, never {@code INSERT IGNORE}).
 */
final class ReconciliationItems {

  private static final String ITEM_KEY = "uk_reconciliation_item";

  /** A gap about to be recorded; see {@link ReconciliationItem} for the fields. */
  record Draft(
      String channel,
      LocalDate date,
      ReconciliationKind kind,
      String channelTxnId,
      String paymentId,
      String refundId,
      Money channelAmount,
      Money ourAmount,
      PaymentStatus ourStatus,
      Long exceptionId,
      String details) {}

  private final DSLContext dsl;

  ReconciliationItems(DSLContext dsl) {
    this.dsl = dsl;
  }

  /** Inserts a PENDING item, or finds the one already recorded under its unique key. */
  ReconciliationGap record(Draft d) {
    try {
      long id =
          dsl.insertInto(RECONCILIATION_ITEM)
              .set(RECONCILIATION_ITEM.CHANNEL, d.channel())
              .set(RECONCILIATION_ITEM.STATEMENT_DATE, d.date())
              .set(RECONCILIATION_ITEM.KIND, d.kind().name())
              .set(RECONCILIATION_ITEM.CHANNEL_TXN_ID, d.channelTxnId())
              .set(RECONCILIATION_ITEM.PAYMENT_ID, d.paymentId())
              .set(RECONCILIATION_ITEM.REFUND_ID, d.refundId())
              .set(RECONCILIATION_ITEM.CHANNEL_AMOUNT_MINOR, minor(d.channelAmount()))
              .set(RECONCILIATION_ITEM.CHANNEL_CURRENCY, currency(d.channelAmount()))
              .set(RECONCILIATION_ITEM.OUR_AMOUNT_MINOR, minor(d.ourAmount()))
              .set(RECONCILIATION_ITEM.OUR_CURRENCY, currency(d.ourAmount()))
              .set(
                  RECONCILIATION_ITEM.OUR_STATUS,
                  d.ourStatus() == null ? null : d.ourStatus().name())
              .set(RECONCILIATION_ITEM.REPAIR, d.kind().repair().name())
              .set(RECONCILIATION_ITEM.REPAIR_STATUS, RepairStatus.PENDING.name())
              .set(RECONCILIATION_ITEM.EXCEPTION_ID, d.exceptionId())
              .set(RECONCILIATION_ITEM.DETAILS, Text.fit(d.details(), RECONCILIATION_ITEM.DETAILS))
              .set(RECONCILIATION_ITEM.CREATED_AT, SqlTime.now())
              .set(RECONCILIATION_ITEM.UPDATED_AT, SqlTime.now())
              .returningResult(RECONCILIATION_ITEM.ID)
              .fetchSingle()
              .value1();
      return new ReconciliationGap(find(id).orElseThrow(), true);
    } catch (DataAccessException e) {
      if (!UniqueKeys.isViolationOf(e, ITEM_KEY)) {
        throw e;
      }
      ReconciliationItemRecord existing =
          dsl.fetchSingle(
              RECONCILIATION_ITEM,
              RECONCILIATION_ITEM
                  .CHANNEL
                  .eq(d.channel())
                  .and(RECONCILIATION_ITEM.STATEMENT_DATE.eq(d.date()))
                  .and(RECONCILIATION_ITEM.KIND.eq(d.kind().name()))
                  .and(RECONCILIATION_ITEM.CHANNEL_TXN_ID.eq(d.channelTxnId())));
      return new ReconciliationGap(toItem(reopenIfRecurred(existing, d)), false);
    }
  }

  /**
   * A gap with an actionable repair (re-grant, query and confirm, query a refund, record a channel
   * refund) found again after that repair was DONE happened again (e.g. an entitlement deleted
   * after its re-grant): the item is reopened so this run repairs it. A gap whose repair worked is
   * not found again, so re-runs stay no-ops.
   */
  private ReconciliationItemRecord reopenIfRecurred(ReconciliationItemRecord existing, Draft d) {
    boolean actionable =
        d.kind().repair() == RepairKind.REGRANT
            || d.kind().repair() == RepairKind.QUERY_AND_CONFIRM
            || d.kind().repair() == RepairKind.QUERY_REFUND
            || d.kind().repair() == RepairKind.RECORD_CHANNEL_REFUND;
    if (!actionable || !RepairStatus.DONE.name().equals(existing.getRepairStatus())) {
      return existing;
    }
    dsl.update(RECONCILIATION_ITEM)
        .set(RECONCILIATION_ITEM.REPAIR_STATUS, RepairStatus.PENDING.name())
        .set(RECONCILIATION_ITEM.REPAIR_DETAILS, "found again after its repair; reopened")
        .set(RECONCILIATION_ITEM.UPDATED_AT, SqlTime.now())
        .where(RECONCILIATION_ITEM.ID.eq(existing.getId()))
        .execute();
    return dsl.fetchSingle(RECONCILIATION_ITEM, RECONCILIATION_ITEM.ID.eq(existing.getId()));
  }

  Optional<ReconciliationItem> find(long id) {
    return dsl.fetchOptional(RECONCILIATION_ITEM, RECONCILIATION_ITEM.ID.eq(id))
        .map(ReconciliationItems::toItem);
  }

  /** Sets the repair outcome; false when there is no such item. */
  boolean markRepaired(long id, RepairStatus status, String repairDetails) {
    return dsl.update(RECONCILIATION_ITEM)
            .set(RECONCILIATION_ITEM.REPAIR_STATUS, status.name())
            .set(
                RECONCILIATION_ITEM.REPAIR_DETAILS,
                Text.fit(repairDetails, RECONCILIATION_ITEM.REPAIR_DETAILS))
            .set(RECONCILIATION_ITEM.UPDATED_AT, SqlTime.now())
            .where(RECONCILIATION_ITEM.ID.eq(id))
            .execute()
        == 1;
  }

  /**
   * Ids of the day's items whose repair is not DONE (PENDING or FAILED) with an id above {@code
   * afterId}, ascending: a keyset page served by {@code ix_reconciliation_item_repair}, whose
   * entries end in the primary key, so a page reads only the open items past the cursor.
   */
  List<Long> openIds(String channel, LocalDate date, long afterId, int limit) {
    return dsl.select(RECONCILIATION_ITEM.ID)
        .from(RECONCILIATION_ITEM)
        .where(RECONCILIATION_ITEM.CHANNEL.eq(channel))
        .and(RECONCILIATION_ITEM.STATEMENT_DATE.eq(date))
        .and(
            RECONCILIATION_ITEM.REPAIR_STATUS.in(
                RepairStatus.PENDING.name(), RepairStatus.FAILED.name()))
        .and(RECONCILIATION_ITEM.ID.gt(afterId))
        .orderBy(RECONCILIATION_ITEM.ID)
        .limit(limit)
        .fetch(RECONCILIATION_ITEM.ID);
  }

  /**
   * Whether the channel listed {@code channelTxnId} with a gap on a statement of another day, e.g.
   * a payment that reconciliation itself confirmed days after the channel settled it, or a refund
   * (by the channel's refund id) it recorded SUCCEEDED after that day's statement listed it.
   */
  boolean listedOnAnotherDay(String channel, String channelTxnId, LocalDate date) {
    return dsl.fetchExists(
        RECONCILIATION_ITEM,
        RECONCILIATION_ITEM
            .CHANNEL
            .eq(channel)
            .and(RECONCILIATION_ITEM.CHANNEL_TXN_ID.eq(channelTxnId))
            .and(RECONCILIATION_ITEM.STATEMENT_DATE.ne(date))
            .and(
                RECONCILIATION_ITEM.KIND.notIn(
                    ReconciliationKind.MISSING_FROM_STATEMENT.name(),
                    ReconciliationKind.REFUND_MISSING_FROM_STATEMENT.name())));
  }

  /** Items of one day per kind; kinds without items are absent. */
  Map<ReconciliationKind, Integer> countByKind(String channel, LocalDate date) {
    Map<ReconciliationKind, Integer> counts = new EnumMap<>(ReconciliationKind.class);
    dsl.select(RECONCILIATION_ITEM.KIND, org.jooq.impl.DSL.count())
        .from(RECONCILIATION_ITEM)
        .where(RECONCILIATION_ITEM.CHANNEL.eq(channel))
        .and(RECONCILIATION_ITEM.STATEMENT_DATE.eq(date))
        .groupBy(RECONCILIATION_ITEM.KIND)
        .forEach(r -> counts.put(ReconciliationKind.valueOf(r.value1()), r.value2()));
    return counts;
  }

  /** Items of one day per repair status; statuses without items are absent. */
  Map<RepairStatus, Integer> countByRepairStatus(String channel, LocalDate date) {
    Map<RepairStatus, Integer> counts = new EnumMap<>(RepairStatus.class);
    dsl.select(RECONCILIATION_ITEM.REPAIR_STATUS, org.jooq.impl.DSL.count())
        .from(RECONCILIATION_ITEM)
        .where(RECONCILIATION_ITEM.CHANNEL.eq(channel))
        .and(RECONCILIATION_ITEM.STATEMENT_DATE.eq(date))
        .groupBy(RECONCILIATION_ITEM.REPAIR_STATUS)
        .forEach(r -> counts.put(RepairStatus.valueOf(r.value1()), r.value2()));
    return counts;
  }

  private static ReconciliationItem toItem(ReconciliationItemRecord r) {
    return new ReconciliationItem(
        r.getId(),
        r.getChannel(),
        r.getStatementDate(),
        ReconciliationKind.valueOf(r.getKind()),
        r.getChannelTxnId(),
        r.getPaymentId(),
        r.getRefundId(),
        money(r.getChannelAmountMinor(), r.getChannelCurrency()),
        money(r.getOurAmountMinor(), r.getOurCurrency()),
        r.getOurStatus() == null ? null : PaymentStatus.valueOf(r.getOurStatus()),
        RepairKind.valueOf(r.getRepair()),
        RepairStatus.valueOf(r.getRepairStatus()),
        r.getExceptionId(),
        r.getDetails(),
        r.getRepairDetails(),
        SqlTime.utc(r.getCreatedAt()),
        SqlTime.utc(r.getUpdatedAt()));
  }

  private static Money money(Long minor, String currency) {
    return minor == null || currency == null ? null : Money.ofMinor(minor, currency);
  }

  private static Long minor(Money m) {
    return m == null ? null : m.minorUnits();
  }

  private static String currency(Money m) {
    return m == null ? null : m.currencyCode();
  }
}

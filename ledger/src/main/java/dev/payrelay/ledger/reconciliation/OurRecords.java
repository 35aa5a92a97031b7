package dev.payrelay.ledger.reconciliation;

import static dev.payrelay.ledger.db.generated.Tables.ENTITLEMENT;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;

import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.domain.channel.StatementLine;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/** The reads reconciliation compares a statement with: payments and their entitlements. */
final class OurRecords {

  private final DSLContext dsl;
  private final PaymentStore payments;

  OurRecords(DSLContext dsl, PaymentStore payments) {
    this.dsl = dsl;
    this.payments = payments;
  }

  /**
   * The payment a line names: by its payment id when it carries one, else by the channel's
   * transaction id, which is unique per merchant account of a channel (DESIGN invariant 4;
   * uk_payment_channel_txn): of {@code account}'s payments, or, for the channel's statement of
   * every account ({@code account} null), the one payment with it (none when two accounts have it).
   */
  Optional<PaymentRow> paymentOf(String channel, String account, StatementLine line) {
    if (line.paymentId() != null) {
      return payments.find(line.paymentId());
    }
    List<String> ids =
        dsl.select(PAYMENT_ORDER.PAYMENT_ID)
            .from(PAYMENT_ORDER)
            .where(PAYMENT_ORDER.CHANNEL.eq(channel))
            .and(PAYMENT_ORDER.CHANNEL_TXN_ID.eq(line.channelTxnId()))
            .and(account == null ? DSL.noCondition() : PAYMENT_ORDER.MERCHANT_ID.eq(account))
            .limit(2)
            .fetch(PAYMENT_ORDER.PAYMENT_ID);
    return ids.size() == 1 ? payments.find(ids.getFirst()) : Optional.empty();
  }

  /** Whether every course the payment bought has its entitlement row for the buyer. */
  boolean entitled(PaymentRow p) {
    if (p.courseIds().isEmpty()) {
      return true;
    }
    int granted =
        dsl.fetchCount(
            ENTITLEMENT,
            ENTITLEMENT
                .PURCHASE_ID
                .eq(p.paymentId())
                .and(ENTITLEMENT.USER_ID.eq(p.userId()))
                .and(ENTITLEMENT.COURSE_ID.in(p.courseIds())));
    return granted == p.courseIds().size();
  }

  /**
   * The channel's payments paid on a day of {@code zone} (PAID, or refunded since: their payment
   * line is still in the statement, the refund is a line of its own) ({@code paid_at}, stored in
   * UTC, in {@code [date 00:00, date + 1 00:00)} of that zone), in paid_at order. Course ids are
   * not read.
   */
  List<PaymentRow> paidOn(String channel, LocalDate date, ZoneId zone) {
    return dsl.selectFrom(PAYMENT_ORDER)
        .where(PAYMENT_ORDER.CHANNEL.eq(channel))
        .and(PAYMENT_ORDER.STATUS.in(PaymentStatus.paidNames()))
        .and(PAYMENT_ORDER.PAID_AT.ge(utc(date, zone)))
        .and(PAYMENT_ORDER.PAID_AT.lt(utc(date.plusDays(1), zone)))
        .orderBy(PAYMENT_ORDER.PAID_AT, PAYMENT_ORDER.PAYMENT_ID)
        .fetch(r -> PaymentStore.toRow(r, List.of()));
  }

  /** The UTC time (as stored) at which {@code date} begins in {@code zone}. */
  static LocalDateTime utc(LocalDate date, ZoneId zone) {
    return LocalDateTime.ofInstant(date.atStartOfDay(zone).toInstant(), ZoneOffset.UTC);
  }
}

package dev.payrelay.ledger.payment;

import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;

import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.domain.PaymentTransition;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.db.Transactions;
import dev.payrelay.ledger.operator.OperatorAction;
import dev.payrelay.ledger.operator.OperatorActions;
import dev.payrelay.ledger.operator.OperatorAnswer;
import dev.payrelay.ledger.operator.ResolutionOutcome;
import dev.payrelay.ledger.outbox.OutboxWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.jooq.DSLContext;

/**
 * A payment's deadline: expiry once the channel closed it, and an operator's extension. Each is one
 * transaction; extensions and their refusals are audited in {@code operator_action}.
 */
public final class PaymentDeadlines {

  /**
   * The furthest an extension may move a deadline from the database's now. A payment watched for
   * longer than a year is no longer a payment in flight; and it keeps every deadline well inside
   * the {@code TIMESTAMP} range (up to 2038-01-19 03:14:07 UTC, MariaDB's "Date and Time Data
   * Types"), beyond which the column cannot hold it.
   */
  public static final Duration MAX_EXTENSION = Duration.ofDays(366);

  private final DSLContext dsl;
  private final PaymentTransitions transitions;

  /** Deadlines over {@code dsl}, announcing expiries through {@code outbox}. */
  public PaymentDeadlines(DSLContext dsl, OutboxWriter outbox) {
    this.dsl = dsl;
    this.transitions = new PaymentTransitions(outbox);
  }

  /**
   * PENDING → EXPIRED with a {@code PaymentClosed} event (source EXPIRY), in one transaction. A
   * payment that moved first (PAID by a late callback, CLOSED by an operator) is left as it is, and
   * so is a PENDING one with an open exception in which the channel reported money paid for it
   * ({@link dev.payrelay.domain.channel.CallbackOutcome#reportsMoneyReceived}, e.g. an
   * AMOUNT_MISMATCH): expiring it would end it as "nothing paid" while the buyer's money waits for
   * an operator's MARK_FOR_REFUND or ACCEPT_AS_PAID; it stays PENDING until then.
   *
   * @return the payment's status afterwards
   * @throws IllegalArgumentException if there is no such payment
   */
  public PaymentStatus expire(String paymentId) {
    return Transactions.run(
        dsl,
        cfg -> {
          DSLContext tx = cfg.dsl();
          PaymentRow row = lock(tx, paymentId);
          if (row.status() == PaymentStatus.PENDING
              && !PaymentExceptions.moneyReceived(PaymentExceptions.open(tx, paymentId))
                  .isEmpty()) {
            return PaymentStatus.PENDING;
          }
          if (transitions.closeUnpaid(
                  tx,
                  row,
                  PaymentTransition.EXPIRE,
                  "EXPIRY",
                  "deadline passed; closed at the channel")
              != null) {
            return PaymentStatus.EXPIRED;
          }
          return row.status();
        });
  }

  /**
   * Audits an operator request on a payment's deadline or queries; a valid extension of a PENDING
   * payment also moves {@code expires_at}, in the same transaction. An extension is refused (and
   * audited REJECTED) unless it is later than the payment's current deadline and than now, and at
   * most {@link #MAX_EXTENSION} after the database's now: a deadline in the past would expire the
   * payment at once, and one beyond the column's range could not be stored. Once per action key: a
   * repeat with {@code asked}'s key returns the stored result.
   *
   * @param asked the request: target the payment, action {@code REQUERY} or {@code EXTEND_DEADLINE}
   * @param until the new deadline for EXTEND_DEADLINE, else null
   * @param rejection why the request is invalid, or null
   */
  public ResolutionOutcome operatorRequest(OperatorAction asked, Instant until, String rejection) {
    return ResolutionOutcome.of(
        OperatorActions.once(
            dsl,
            asked,
            () ->
                rejection != null
                    ? OperatorActions.record(dsl, asked, OperatorAnswer.rejected(rejection))
                    : Transactions.run(dsl, cfg -> applyRequest(cfg.dsl(), asked, until))));
  }

  private static OperatorAnswer applyRequest(DSLContext tx, OperatorAction asked, Instant until) {
    if (until == null) {
      return OperatorActions.record(tx, asked, OperatorAnswer.applied("asked the channel now"));
    }
    PaymentRow payment = lock(tx, asked.targetId());
    if (payment.status() != PaymentStatus.PENDING) {
      return OperatorActions.record(tx, asked, OperatorAnswer.rejected("payment is not PENDING"));
    }
    String outOfRange = outOfRange(tx, payment, until);
    if (outOfRange != null) {
      return OperatorActions.record(tx, asked, OperatorAnswer.rejected(outOfRange));
    }
    int changed =
        tx.update(PAYMENT_ORDER)
            .set(PAYMENT_ORDER.EXPIRES_AT, LocalDateTime.ofInstant(until, ZoneOffset.UTC))
            .set(PAYMENT_ORDER.UPDATED_AT, SqlTime.now())
            .where(PAYMENT_ORDER.PAYMENT_ID.eq(asked.targetId()))
            .and(PAYMENT_ORDER.STATUS.eq(PaymentStatus.PENDING.name()))
            .execute();
    OperatorAnswer answer =
        changed == 1
            ? OperatorAnswer.applied("deadline moved to " + until)
            : OperatorAnswer.rejected("payment is not PENDING");
    return OperatorActions.record(tx, asked, answer);
  }

  /** Why {@code until} cannot be {@code payment}'s new deadline, or null when it can. */
  private static String outOfRange(DSLContext tx, PaymentRow payment, Instant until) {
    if (payment.expiresAt() != null && !until.isAfter(payment.expiresAt())) {
      return "an extension must be later than the current deadline "
          + payment.expiresAt()
          + ", got "
          + until;
    }
    Instant now = SqlTime.utc(tx.select(SqlTime.now()).fetchSingle().value1());
    if (!until.isAfter(now)) {
      return "an extension must be in the future (now " + now + "), got " + until;
    }
    if (until.isAfter(now.plus(MAX_EXTENSION))) {
      return "an extension may reach at most "
          + MAX_EXTENSION.toDays()
          + " days ahead ("
          + now.plus(MAX_EXTENSION)
          + "), got "
          + until;
    }
    return null;
  }

  private static PaymentRow lock(DSLContext tx, String paymentId) {
    return tx.selectFrom(PAYMENT_ORDER)
        .where(PAYMENT_ORDER.PAYMENT_ID.eq(paymentId))
        .forUpdate()
        .fetchOptional()
        .map(r -> PaymentStore.toRow(r, List.of()))
        .orElseThrow(() -> new IllegalArgumentException("no payment " + paymentId));
  }
}

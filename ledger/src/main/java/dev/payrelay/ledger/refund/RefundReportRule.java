package dev.payrelay.ledger.refund;

import static dev.payrelay.ledger.db.generated.Tables.REFUND;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.RefundIds;
import dev.payrelay.domain.RefundState;
import dev.payrelay.domain.RefundTransition;
import dev.payrelay.domain.channel.CallbackOutcome;
import dev.payrelay.domain.channel.ChannelRefundStatus;
import dev.payrelay.domain.channel.RefundReport;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.db.Text;
import dev.payrelay.ledger.db.generated.tables.records.PaymentOrderRecord;
import dev.payrelay.ledger.db.generated.tables.records.RefundRecord;
import dev.payrelay.ledger.payment.PaymentExceptions;
import dev.payrelay.ledger.refund.RefundReports.ReportResult;
import java.util.Map;
import org.jooq.DSLContext;

/**
 * What one channel refund report means for our records, applied inside {@link RefundReports}'
 * transaction, which holds the payment's row lock:
 *
 * <ul>
 *   <li>a refund we hold (by the channel's id, else by our number), whatever the payment's status:
 *       SUCCEEDED and FAILED are {@link RefundOutcomes}' transactions, PENDING moves REQUESTED or
 *       UNKNOWN to SUBMITTED; a report of what is recorded already is REFUND_DUPLICATE;
 *   <li>a refund we never requested: a row of origin CHANNEL, then the same, and a {@code
 *       REFUND_NOT_REQUESTED} exception for review;
 *   <li>a disagreement (amount, the channel's id, an outcome contradicting the recorded final one,
 *       more refunded than captured): a {@code REFUND_MISMATCH} exception, nothing applied.
 * </ul>
 */
final class RefundReportRule {

  private static final String NOT_REQUESTED_REASON =
      "made at the channel, not requested through payrelay";
  private static final String FAILED_WITHOUT_REASON = "the channel reported the refund failed";

  private final RefundOutcomes outcomes;
  private final PaymentExceptions exceptions;

  RefundReportRule(RefundOutcomes outcomes, PaymentExceptions exceptions) {
    this.outcomes = outcomes;
    this.exceptions = exceptions;
  }

  /** One report being decided: the transaction, the locked payment, the report, its inbox row. */
  record Context(DSLContext tx, PaymentOrderRecord payment, RefundReport report, Long inboxId) {

    String names() {
      return report.channelRefundId()
          + (report.refundNo() == null ? "" : " (our " + report.refundNo() + ")")
          + " "
          + report.status()
          + " "
          + report.amount();
    }
  }

  /** A report of {@code ours}, a refund we hold. */
  ReportResult ofRecorded(Context at, RefundRecord ours) {
    RefundReport report = at.report();
    String bound = ours.getChannelRefundId();
    if (bound != null && !bound.equals(report.channelRefundId())) {
      return mismatch(at, "our refund " + ours.getRefundId() + " is the channel's " + bound);
    }
    if (ours.getAmountMinor() != report.amount().minorUnits()) {
      return mismatch(
          at,
          "our refund "
              + ours.getRefundId()
              + " is of "
              + Money.ofMinor(ours.getAmountMinor(), ours.getCurrency()));
    }
    RefundState state = RefundState.valueOf(ours.getState());
    return switch (report.status()) {
      case SUCCEEDED -> succeeded(at, ours, state, CallbackOutcome.REFUND_APPLIED, null);
      case FAILED -> failed(at, ours, state, CallbackOutcome.REFUND_APPLIED, null);
      case PENDING -> pending(at, ours, state, CallbackOutcome.REFUND_APPLIED, null);
      case NOT_FOUND -> throw new IllegalArgumentException("a reported refund exists");
    };
  }

  /**
   * A report of a refund we never requested: recorded once as origin CHANNEL with a {@code
   * REFUND_NOT_REQUESTED} exception, then applied as one of ours.
   */
  ReportResult notRequested(Context at) {
    RefundReport report = at.report();
    if (report.status() != ChannelRefundStatus.FAILED) {
      String over = overCapture(at, null);
      if (over != null) {
        return mismatch(at, "not requested, and " + over);
      }
    }
    RefundRecord row = insertChannelRefund(at);
    PaymentExceptions.Recorded flagged =
        exceptions.recordIn(
            at.tx(),
            at.payment().getPaymentId(),
            CallbackOutcome.REFUND_NOT_REQUESTED.name(),
            at.payment().getChannelTxnId(),
            PaymentExceptions.occurrenceOf(report.channelRefundId()),
            report.amount(),
            "REFUND_NOT_REQUESTED: the channel reports refund "
                + at.names()
                + ", which payrelay never requested; recorded as "
                + row.getRefundId()
                + " (origin CHANNEL)",
            at.inboxId());
    CallbackOutcome o = CallbackOutcome.REFUND_NOT_REQUESTED;
    RefundState state = RefundState.REQUESTED;
    return switch (report.status()) {
      case SUCCEEDED -> succeeded(at, row, state, o, flagged);
      case FAILED -> failed(at, row, state, o, flagged);
      case PENDING -> pending(at, row, state, o, flagged);
      case NOT_FOUND -> throw new IllegalArgumentException("a reported refund exists");
    };
  }

  /** Records a {@code REFUND_MISMATCH} exception (once per refund and reported status). */
  ReportResult mismatch(Context at, String why) {
    RefundReport report = at.report();
    String detail = "REFUND_MISMATCH: the channel reports refund " + at.names() + "; " + why;
    PaymentExceptions.Recorded recorded =
        exceptions.recordIn(
            at.tx(),
            at.payment().getPaymentId(),
            CallbackOutcome.REFUND_MISMATCH.name(),
            at.payment().getChannelTxnId(),
            PaymentExceptions.occurrenceOf(report.channelRefundId() + ":" + report.status()),
            report.amount(),
            detail,
            at.inboxId());
    return new ReportResult(
        CallbackOutcome.REFUND_MISMATCH,
        at.names() + ": not applied (" + why + ")",
        recorded.eventId(),
        recorded.id());
  }

  private ReportResult succeeded(
      Context at,
      RefundRecord row,
      RefundState state,
      CallbackOutcome applied,
      PaymentExceptions.Recorded flagged) {
    if (state == RefundState.SUCCEEDED) {
      return duplicate(at, row);
    }
    if (state == RefundState.FAILED) {
      return mismatch(at, "our refund " + row.getRefundId() + " is FAILED");
    }
    String over = overCapture(at, row);
    if (over != null) {
      return mismatch(at, over);
    }
    RefundOutcome done =
        outcomes.succeeded(at.tx(), row.getRefundId(), at.report().channelRefundId());
    return result(at, applied, row, "payment " + done.paymentStatus(), done.eventId(), flagged);
  }

  private ReportResult failed(
      Context at,
      RefundRecord row,
      RefundState state,
      CallbackOutcome applied,
      PaymentExceptions.Recorded flagged) {
    if (state == RefundState.FAILED) {
      return duplicate(at, row);
    }
    if (state == RefundState.SUCCEEDED) {
      return mismatch(at, "our refund " + row.getRefundId() + " SUCCEEDED");
    }
    bind(at, row);
    String reason = at.report().failureReason();
    outcomes.failed(
        at.tx(),
        row.getRefundId(),
        reason == null || reason.isBlank()
            ? FAILED_WITHOUT_REASON
            : Text.fit(reason, REFUND.FAILURE_REASON));
    return result(at, applied, row, "FAILED, amount refundable again", null, flagged);
  }

  /** PENDING: the channel works on it. REQUESTED or UNKNOWN moves to SUBMITTED; else a repeat. */
  private ReportResult pending(
      Context at,
      RefundRecord row,
      RefundState state,
      CallbackOutcome applied,
      PaymentExceptions.Recorded flagged) {
    bind(at, row);
    if (!RefundTransition.SUBMIT.startsFrom(state)) {
      return duplicate(at, row);
    }
    RefundOutcomes.move(at.tx(), row.getRefundId(), RefundTransition.SUBMIT, Map.of());
    return result(at, applied, row, "SUBMITTED", null, flagged);
  }

  private static ReportResult duplicate(Context at, RefundRecord row) {
    return new ReportResult(
        CallbackOutcome.REFUND_DUPLICATE,
        at.names() + ": already recorded as " + row.getRefundId() + " " + row.getState(),
        null,
        null);
  }

  private static ReportResult result(
      Context at,
      CallbackOutcome outcome,
      RefundRecord row,
      String what,
      String eventId,
      PaymentExceptions.Recorded flagged) {
    String exceptionEvent = flagged == null ? null : flagged.eventId();
    return new ReportResult(
        outcome,
        at.names() + ": applied to " + row.getRefundId() + ", " + what,
        eventId != null ? eventId : exceptionEvent,
        flagged == null ? null : flagged.id());
  }

  /**
   * Why applying the report as SUCCEEDED would take back more than the capture it is held against
   * (V17): {@code row}'s other capture ({@code refund.channel_txn_id}, capped by its {@code
   * txn_amount_minor}) when it names one, else the payment's own ({@code amount_minor}; {@code row}
   * null for a refund not yet recorded). The SUCCEEDED refunds of that capture plus this one, minor
   * units; null when it fits.
   */
  private static String overCapture(Context at, RefundRecord row) {
    String txn = row == null ? null : row.getChannelTxnId();
    long succeeded =
        at
            .tx()
            .select(REFUND.AMOUNT_MINOR)
            .from(REFUND)
            .where(REFUND.PAYMENT_ID.eq(at.payment().getPaymentId()))
            .and(txn == null ? REFUND.CHANNEL_TXN_ID.isNull() : REFUND.CHANNEL_TXN_ID.eq(txn))
            .and(REFUND.STATE.eq(RefundState.SUCCEEDED.name()))
            .forUpdate()
            .fetch(REFUND.AMOUNT_MINOR)
            .stream()
            .mapToLong(Long::longValue)
            .sum();
    long captured =
        txn == null || row.getTxnAmountMinor() == null
            ? at.payment().getAmountMinor()
            : row.getTxnAmountMinor();
    if (succeeded + at.report().amount().minorUnits() <= captured) {
      return null;
    }
    return "with the "
        + succeeded
        + " already refunded it would exceed the captured "
        + captured
        + " "
        + (txn == null ? at.payment().getCurrency() : row.getCurrency())
        + " (minor units"
        + (txn == null ? ")" : ", channel transaction " + txn + ")");
  }

  /** Records the channel's id on a refund that has none yet (its later reports find it by it). */
  private static void bind(Context at, RefundRecord row) {
    at.tx()
        .update(REFUND)
        .set(REFUND.CHANNEL_REFUND_ID, at.report().channelRefundId())
        .set(REFUND.UPDATED_AT, SqlTime.now())
        .where(REFUND.REFUND_ID.eq(row.getRefundId()))
        .and(REFUND.CHANNEL_REFUND_ID.isNull())
        .execute();
  }

  /**
   * Inserts a refund made at the channel: REQUESTED, origin CHANNEL, bound to the channel's id,
   * under a refund number of ours the channel never sees and an idempotency key derived from the
   * channel's id (SHA-256), so the row satisfies the constraints our own refunds do.
   */
  private static RefundRecord insertChannelRefund(Context at) {
    RefundReport report = at.report();
    String hash = RefundAsk.sha256(at.payment().getChannel() + ":" + report.channelRefundId());
    String refundId = RefundIds.mintId();
    at.tx()
        .insertInto(REFUND)
        .set(REFUND.REFUND_ID, refundId)
        .set(REFUND.REFUND_NO, RefundIds.mintNumber())
        .set(REFUND.PAYMENT_ID, at.payment().getPaymentId())
        .set(REFUND.TENANT_ID, at.payment().getTenantId())
        .set(REFUND.AMOUNT_MINOR, report.amount().minorUnits())
        .set(REFUND.CURRENCY, at.payment().getCurrency())
        .set(REFUND.REASON, NOT_REQUESTED_REASON)
        .set(REFUND.STATE, RefundState.REQUESTED.name())
        .set(REFUND.CHANNEL_REFUND_ID, report.channelRefundId())
        .set(REFUND.IDEMPOTENCY_KEY, "channel:" + hash)
        .set(REFUND.REQUEST_HASH, hash)
        .set(REFUND.REQUESTED_BY, RefundReports.REQUESTED_BY_CHANNEL)
        .set(REFUND.ORIGIN, RefundOrigin.CHANNEL.name())
        .set(REFUND.CREATED_AT, SqlTime.now())
        .set(REFUND.UPDATED_AT, SqlTime.now())
        .execute();
    return at.tx().selectFrom(REFUND).where(REFUND.REFUND_ID.eq(refundId)).fetchSingle();
  }
}

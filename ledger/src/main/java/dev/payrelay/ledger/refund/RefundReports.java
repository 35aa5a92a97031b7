package dev.payrelay.ledger.refund;

import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;
import static dev.payrelay.ledger.db.generated.Tables.REFUND;

import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.domain.channel.CallbackOutcome;
import dev.payrelay.domain.channel.RefundReport;
import dev.payrelay.domain.channel.VerifiedCallback;
import dev.payrelay.ledger.db.Text;
import dev.payrelay.ledger.db.Transactions;
import dev.payrelay.ledger.db.UniqueKeys;
import dev.payrelay.ledger.db.generated.tables.records.PaymentOrderRecord;
import dev.payrelay.ledger.db.generated.tables.records.RefundRecord;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.payment.LedgerResult;
import dev.payrelay.ledger.payment.PaymentExceptions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;

/**
 * Applies the refunds a verified callback reports (issue 28 item 3), each once however many
 * notifications report it: a refund's identity is the channel's refund id, unique within its
 * payment ({@code uk_refund_channel_refund}, V15), never the notification's. Each report is one
 * local transaction that locks the payment's row first (the order {@link RefundRequests} and {@link
 * RefundOutcomes} take), so reports of one payment queue and each sees the others' commits. What
 * each report means is {@link RefundReportRule}'s; this class reads, writes and sums up.
 */
public final class RefundReports {

  /** The {@code refund.requested_by} of a refund made at the channel ({@link RefundOrigin}). */
  public static final String REQUESTED_BY_CHANNEL = "channel";

  private static final String CHANNEL_REFUND_KEY = "uk_refund_channel_refund";

  /** How much each per-report outcome weighs in the callback's one outcome, most first. */
  private static final List<CallbackOutcome> PRECEDENCE =
      List.of(
          CallbackOutcome.REFUND_MISMATCH,
          CallbackOutcome.REFUND_NOT_REQUESTED,
          CallbackOutcome.REFUND_APPLIED,
          CallbackOutcome.REFUND_DUPLICATE);

  private final DSLContext dsl;
  private final RefundReportRule rule;

  /**
   * Reports applied over {@code dsl}, their events and exceptions written through {@code outbox}.
   */
  public RefundReports(DSLContext dsl, OutboxWriter outbox) {
    this.dsl = dsl;
    this.rule =
        new RefundReportRule(new RefundOutcomes(dsl, outbox), new PaymentExceptions(dsl, outbox));
  }

  /**
   * Applies every refund {@code callback} reports about payment {@code paymentId}, oldest first.
   *
   * @param inboxId the {@code webhook_inbox} row the callback arrived in (kept on any exception),
   *     or null
   * @return one outcome for the callback: REFUND_MISMATCH when any report disagreed with our
   *     records (each such report a {@code REFUND_MISMATCH} exception, not applied), else
   *     REFUND_NOT_REQUESTED when one was a refund we never requested, else REFUND_APPLIED when one
   *     changed a refund, else REFUND_DUPLICATE; its event id is the last event written (a {@code
   *     PaymentRefunded} or {@code PaymentExceptionRecorded}), its exception id the first
   *     exception's, its detail one line per report
   */
  public LedgerResult apply(String paymentId, VerifiedCallback callback, Long inboxId) {
    List<ReportResult> results = new ArrayList<>();
    for (RefundReport report : callback.refunds()) {
      results.add(applyOne(paymentId, report, inboxId));
    }
    CallbackOutcome outcome =
        results.stream()
            .map(ReportResult::outcome)
            .min(Comparator.comparingInt(PRECEDENCE::indexOf))
            .orElseThrow();
    String eventId =
        results.stream()
            .map(ReportResult::eventId)
            .filter(Objects::nonNull)
            .reduce((a, b) -> b)
            .orElse(null);
    Long exceptionId =
        results.stream()
            .map(ReportResult::exceptionId)
            .filter(Objects::nonNull)
            .findFirst()
            .orElse(null);
    String detail =
        outcome + ": " + String.join("; ", results.stream().map(ReportResult::detail).toList());
    return new LedgerResult(outcome, paymentId, eventId, exceptionId, Text.truncate(detail));
  }

  private ReportResult applyOne(String paymentId, RefundReport report, Long inboxId) {
    try {
      return Transactions.run(dsl, cfg -> applyIn(cfg.dsl(), paymentId, report, inboxId));
    } catch (DataAccessException e) {
      if (!UniqueKeys.isViolationOf(e, CHANNEL_REFUND_KEY)) {
        throw e;
      }
      // Another report of this refund committed its row first: decided again, it is a repeat.
      return Transactions.run(dsl, cfg -> applyIn(cfg.dsl(), paymentId, report, inboxId));
    }
  }

  private ReportResult applyIn(DSLContext tx, String paymentId, RefundReport report, Long inboxId) {
    PaymentOrderRecord payment =
        tx.selectFrom(PAYMENT_ORDER)
            .where(PAYMENT_ORDER.PAYMENT_ID.eq(paymentId))
            .forUpdate()
            .fetchSingle();
    RefundReportRule.Context at = new RefundReportRule.Context(tx, payment, report, inboxId);
    if (report.channelRefundId().length() > REFUND.CHANNEL_REFUND_ID.getDataType().length()) {
      return rule.mismatch(at, "the channel's refund id is longer than we can keep");
    }
    Optional<RefundRecord> known =
        byChannelId(tx, paymentId, report.channelRefundId())
            .or(() -> byNumber(tx, paymentId, report.refundNo()));
    if (known.isPresent()) {
      return ofOurs(at, known.get());
    }
    PaymentStatus status = PaymentStatus.valueOf(payment.getStatus());
    if (!status.wasPaid()) {
      return rule.mismatch(at, "payment is " + status + " here, so no refund of it can apply");
    }
    if (!report.amount().currencyCode().equals(payment.getCurrency())) {
      return rule.mismatch(
          at,
          "reported in " + report.amount().currencyCode() + ", paid in " + payment.getCurrency());
    }
    return rule.notRequested(at);
  }

  /**
   * A report of {@code ours}, a refund we requested (found by the channel's refund id or our
   * number): applied as ours whatever the payment's status, since the refund was accepted against
   * its capture when requested (a refund of another capture, {@link RefundRow#ofOtherCapture}, of a
   * payment never PAID included); a repeat of its recorded outcome is REFUND_DUPLICATE. Only its
   * currency is checked here, against the refund's own.
   */
  private ReportResult ofOurs(RefundReportRule.Context at, RefundRecord ours) {
    String reported = at.report().amount().currencyCode();
    if (!reported.equals(ours.getCurrency())) {
      return rule.mismatch(
          at,
          "reported in "
              + reported
              + ", our refund "
              + ours.getRefundId()
              + " is in "
              + ours.getCurrency());
    }
    return rule.ofRecorded(at, ours);
  }

  /** The payment's refund the channel knows as {@code channelRefundId}, locked. */
  private static Optional<RefundRecord> byChannelId(
      DSLContext tx, String paymentId, String channelRefundId) {
    return tx.selectFrom(REFUND)
        .where(REFUND.PAYMENT_ID.eq(paymentId))
        .and(REFUND.CHANNEL_REFUND_ID.eq(channelRefundId))
        .forUpdate()
        .fetchOptional();
  }

  /** The payment's refund of our number {@code refundNo} (null: none), locked. */
  private static Optional<RefundRecord> byNumber(DSLContext tx, String paymentId, String refundNo) {
    if (refundNo == null) {
      return Optional.empty();
    }
    return tx.selectFrom(REFUND)
        .where(REFUND.PAYMENT_ID.eq(paymentId))
        .and(REFUND.REFUND_NO.eq(refundNo))
        .forUpdate()
        .fetchOptional();
  }

  /**
   * What one report did.
   *
   * @param outcome one of the REFUND_ outcomes
   * @param detail one line naming the report and what became of it
   * @param eventId the last outbox event it wrote, or null
   * @param exceptionId the exception it recorded (or found recorded), or null
   */
  record ReportResult(CallbackOutcome outcome, String detail, String eventId, Long exceptionId) {}
}

package dev.payrelay.ledger.reconciliation;

import dev.payrelay.domain.channel.StatementLine;
import dev.payrelay.ledger.checks.RepairStatus;
import dev.payrelay.ledger.operator.OperatorAction;
import dev.payrelay.ledger.operator.OperatorActions;
import dev.payrelay.ledger.operator.OperatorAnswer;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.payment.PaymentExceptions;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jooq.DSLContext;

/**
 * Reconciliation of a channel's daily statement with our tables (DESIGN invariant 9): finds each
 * discrepancy, records it once in {@code reconciliation_item} with the repair its {@link
 * ReconciliationKind} calls for, and keeps the day's {@code reconciliation_run}.
 *
 * <p>Idempotent: a gap found again (a re-run of the day, a retried page) is the row already
 * recorded under the unique key {@code (channel, statement_date, kind, channel_txn_id)}, and its
 * {@code payment_exception} the one already recorded under the exception's dedupe key {@code
 * kind:payment:txn}. Comparing changes no payment or refund; repairs are the caller's, through the
 * ledger, the entitlement store and {@link #refunds()}.
 */
public final class Reconciliation {

  /** The {@code operator_action} target type of a reconciliation an operator started. */
  public static final String AUDIT_TARGET = "RECONCILIATION";

  /** The {@code operator_action} action of an operator's request to reconcile a day. */
  public static final String AUDIT_ACTION = "RECONCILE";

  private final DSLContext dsl;
  private final OurRecords ours;
  private final ReconciliationItems items;
  private final ReconciliationRuns runs;
  private final GapRecorder recorder;
  private final RefundGaps refundGaps;
  private final ReconciledRefunds refunds;

  /** Reconciliation over {@code dsl}; exceptions are announced through {@code outbox}. */
  public Reconciliation(DSLContext dsl, PaymentStore payments, OutboxWriter outbox) {
    this.dsl = dsl;
    this.ours = new OurRecords(dsl, payments);
    this.items = new ReconciliationItems(dsl);
    this.runs = new ReconciliationRuns(dsl);
    this.recorder = new GapRecorder(items, new PaymentExceptions(dsl, outbox));
    this.refundGaps = new RefundGaps(ours, new OurRefunds(dsl), payments, items, recorder);
    this.refunds = new ReconciledRefunds(dsl, outbox);
  }

  /** The refund repairs' ledger transactions (query answers applied, channel refunds recorded). */
  public ReconciledRefunds refunds() {
    return refunds;
  }

  /**
   * Audits an operator's request to reconcile a day (a run can confirm payments and grant): one
   * {@code operator_action} row, action {@link #AUDIT_ACTION}, target the day's workflow id,
   * APPLIED, saying whether a run started or one was already running.
   */
  public void auditStart(String workflowId, String operator, String reason, boolean started) {
    OperatorActions.record(
        dsl,
        new OperatorAction(null, operator, AUDIT_ACTION, AUDIT_TARGET, workflowId, reason),
        OperatorAnswer.applied(started ? "started" : "already running"));
  }

  /**
   * Compares one statement page with our payments and entitlements and records its gaps. A PAYMENT
   * line is judged as a callback with its content would be: channel PAID and ours PENDING is
   * PAID_NOT_CONFIRMED; ours CLOSED/EXPIRED is PAID_AFTER_CLOSE; another amount or currency is
   * AMOUNT_/CURRENCY_MISMATCH; ours PAID by another transaction is DOUBLE_PAYMENT; a line naming no
   * payment of ours on this channel is UNKNOWN_TRANSACTION; ours PAID without every entitlement is
   * ENTITLEMENT_MISSING. A REFUND line is matched with our refund by the channel's refund id, else
   * by our refund number when the line carries it: none is UNRECORDED_REFUND; ours not SUCCEEDED is
   * REFUND_NOT_CONFIRMED; another amount or currency, or ours FAILED, is REFUND_MISMATCH (a line
   * with neither id nor number of ours is first taken for the payment's oldest open refund of its
   * amount not bound to a channel id, so a refund whose submit answer was lost is queried, never
   * recorded twice). Kinds that {@link ReconciliationKind#recordsException() record an exception}
   * write it with its {@code PaymentExceptionRecorded} event in one transaction.
   *
   * @param channel the channel whose statement it is
   * @param date the statement day
   * @param page the page's lines
   * @return the gaps of this page, in line order; empty when the page agrees with our books
   */
  public List<ReconciliationGap> compare(String channel, LocalDate date, List<StatementLine> page) {
    return compare(channel, null, date, page);
  }

  /**
   * As {@link #compare(String, LocalDate, List)} for the statement of one merchant account: a line
   * naming a payment of another account is UNKNOWN_TRANSACTION (for review) and that payment is
   * neither compared nor touched, so one account's statement never confirms, nor flags, another
   * account's (another tenant's) payment.
   *
   * @param account the merchant id whose statement it is; null for the channel's own statement of
   *     every account, whose lines may name any account's payments
   */
  public List<ReconciliationGap> compare(
      String channel, String account, LocalDate date, List<StatementLine> page) {
    List<ReconciliationGap> gaps = new ArrayList<>();
    for (StatementLine line : page) {
      if (line.isRefund()) {
        refundGaps.compare(channel, account, date, line).ifPresent(gaps::add);
        continue;
      }
      PaymentRow payment = ours.paymentOf(channel, account, line).orElse(null);
      if (payment != null && account != null && !payment.merchantId().equals(account)) {
        gaps.add(
            recorder.record(
                channel,
                date,
                line.channelTxnId(),
                line.amount(),
                null,
                null,
                StatementComparison.ofAnotherAccount(line, account)));
        continue;
      }
      boolean entitled = payment == null || ours.entitled(payment);
      for (StatementComparison.Finding f :
          StatementComparison.compare(channel, line, payment, entitled)) {
        String paymentId = payment != null ? payment.paymentId() : line.paymentId();
        gaps.add(
            recorder.record(
                channel, date, line.channelTxnId(), line.amount(), paymentId, payment, f));
      }
    }
    return gaps;
  }

  /**
   * Records, after every page was compared, our payments the statement has no record of: PAID on
   * {@code channel} with {@code paid_at} on {@code date} (UTC) and a transaction that is neither in
   * {@code seenTxnIds} nor listed with a gap on another day's statement (e.g. confirmed by
   * reconciliation days after the channel settled it). Each is MISSING_FROM_STATEMENT with an
   * exception for review, never an automatic change. The exception carries our transaction and
   * amount, since the channel reported none. Known limit: a payment the channel settled just before
   * midnight and we confirmed just after, without any gap, is reported here for review.
   *
   * @param seenTxnIds every transaction id on the day's statement
   * @return the gaps, in paid_at order
   */
  public List<ReconciliationGap> ourSideGaps(
      String channel, LocalDate date, Set<String> seenTxnIds) {
    return ourSideGaps(channel, date, ZoneOffset.UTC, seenTxnIds);
  }

  /**
   * As {@link #ourSideGaps(String, LocalDate, Set)} for a statement whose day runs in {@code zone}
   * (e.g. Asia/Shanghai for Alipay's and WeChat Pay's bills): our payments with {@code paid_at} in
   * {@code [date 00:00, date + 1 00:00)} of that zone.
   */
  public List<ReconciliationGap> ourSideGaps(
      String channel, LocalDate date, ZoneId zone, Set<String> seenTxnIds) {
    return ourSideGaps(channel, date, zone, seenTxnIds, Set.of());
  }

  /**
   * As {@link #ourSideGaps(String, LocalDate, ZoneId, Set)}, then our refunds: SUCCEEDED with
   * {@code succeeded_at} in the day's window of {@code zone}, whose channel refund id is not in
   * {@code seenTxnIds} (a REFUND line's id), whose refund number is not in {@code seenRefundNos},
   * and that no other day's statement listed with a gap. Each is REFUND_MISSING_FROM_STATEMENT with
   * an exception for review, never an automatic change.
   *
   * @param seenRefundNos every refund number of ours the day's REFUND lines carry
   * @return the payments' gaps in paid_at order, then the refunds' in succeeded_at order
   */
  public List<ReconciliationGap> ourSideGaps(
      String channel,
      LocalDate date,
      ZoneId zone,
      Set<String> seenTxnIds,
      Set<String> seenRefundNos) {
    List<ReconciliationGap> gaps = new ArrayList<>();
    for (PaymentRow p : ours.paidOn(channel, date, zone)) {
      String txn = p.channelTxnId() != null ? p.channelTxnId() : "ours:" + p.paymentId();
      if (seenTxnIds.contains(txn) || items.listedOnAnotherDay(channel, txn, date)) {
        continue;
      }
      StatementComparison.Finding f =
          new StatementComparison.Finding(
              ReconciliationKind.MISSING_FROM_STATEMENT,
              StatementComparison.of(p)
                  + " paid at "
                  + p.paidAt()
                  + "; the statement of "
                  + date
                  + " has no record of it");
      gaps.add(recorder.record(channel, date, txn, null, p.paymentId(), p, f));
    }
    gaps.addAll(refundGaps.ourSide(channel, date, zone, seenTxnIds, seenRefundNos));
    return gaps;
  }

  /**
   * Records the outcome of an item's repair.
   *
   * @param status DONE or FAILED
   * @param details what the repair did or why it failed, for people (cut to 2,000 characters)
   * @throws IllegalArgumentException if there is no such item, or {@code status} is PENDING
   */
  public void markRepaired(long itemId, RepairStatus status, String details) {
    if (status == RepairStatus.PENDING) {
      throw new IllegalArgumentException("a repair ends DONE or FAILED, not PENDING");
    }
    if (!items.markRepaired(itemId, status, details)) {
      throw new IllegalArgumentException("no reconciliation item " + itemId);
    }
  }

  /**
   * The next ids of the day's open items (repair PENDING or FAILED), ascending, after {@code
   * afterItemId}: a repair walks them page by page by passing the last id it saw. An item repaired
   * DONE drops out; one left FAILED stays behind the walker's cursor until the next walk.
   *
   * @param afterItemId 0 for the first page, else the last id of the previous page
   * @param limit at most this many ids (positive)
   * @throws IllegalArgumentException if {@code limit} is not positive
   */
  public List<Long> openItemIds(String channel, LocalDate date, long afterItemId, int limit) {
    if (limit <= 0) {
      throw new IllegalArgumentException("limit must be positive: " + limit);
    }
    return items.openIds(channel, date, afterItemId, limit);
  }

  /** One item, or empty if there is none with that id. */
  public Optional<ReconciliationItem> item(long itemId) {
    return items.find(itemId);
  }

  /**
   * Starts a run of the day: inserts its {@code reconciliation_run} RUNNING, or sets the existing
   * row RUNNING again with its counts reset (a re-run; {@code runs} grows unless it was already
   * RUNNING, i.e. a retried start).
   */
  public ReconciliationRun startRun(String channel, LocalDate date) {
    return runs.start(channel, date);
  }

  /**
   * Finishes the day's run with its counts.
   *
   * @param status COMPLETED or FAILED
   * @param error why it FAILED, or null
   * @throws IllegalStateException if the day's run was never started
   */
  public ReconciliationRun finishRun(
      String channel,
      LocalDate date,
      RunStatus status,
      int pagesRead,
      long linesRead,
      String error) {
    if (!runs.finish(channel, date, status, pagesRead, linesRead, error)) {
      throw new IllegalStateException("no reconciliation run for " + channel + " " + date);
    }
    return runs.find(channel, date).orElseThrow();
  }

  /** The day's latest run (null if never run) and its items counted per kind and repair status. */
  public ReconciliationReport summary(String channel, LocalDate date) {
    return new ReconciliationReport(
        runs.find(channel, date).orElse(null),
        items.countByKind(channel, date),
        items.countByRepairStatus(channel, date));
  }
}

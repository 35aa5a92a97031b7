package dev.payrelay.ledger.reconciliation;

import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.ChannelRefundResult;
import dev.payrelay.domain.channel.ChannelRefundStatus;
import dev.payrelay.domain.channel.RefundReport;
import dev.payrelay.domain.channel.VerifiedCallback;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.payment.LedgerResult;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.refund.RefundOutcome;
import dev.payrelay.ledger.refund.RefundOutcomes;
import dev.payrelay.ledger.refund.RefundReports;
import dev.payrelay.ledger.refund.RefundRow;
import dev.payrelay.ledger.refund.RefundStore;
import java.util.List;
import java.util.Optional;
import org.jooq.DSLContext;

/**
 * The ledger's half of reconciliation's refund repairs (issue 28 item 5): the channel's answer to a
 * query of our refund applied through {@link RefundOutcomes}, and a refund the statement lists but
 * we never requested recorded through {@link RefundReports}, the path the channel's own report of
 * it takes. Both idempotent: a repeated repair changes and announces nothing twice.
 */
public final class ReconciledRefunds {

  /** The failure reason recorded when the channel's FAILED answer carries none. */
  static final String FAILED_WITHOUT_REASON = "the channel answered the refund query: FAILED";

  private final RefundStore refunds;
  private final RefundOutcomes outcomes;
  private final RefundReports reports;

  ReconciledRefunds(DSLContext dsl, OutboxWriter outbox) {
    this.refunds = new RefundStore(dsl);
    this.outcomes = new RefundOutcomes(dsl, outbox);
    this.reports = new RefundReports(dsl, outbox);
  }

  /** Our refund {@code refundId}; empty when there is none. */
  public Optional<RefundRow> refund(String refundId) {
    return refunds.find(refundId);
  }

  /**
   * Applies the channel's answer to a query of our refund: SUCCEEDED records it SUCCEEDED with the
   * channel's refund id (the payment PARTIALLY_REFUNDED or REFUNDED, one {@code PaymentRefunded}),
   * FAILED records it FAILED with the channel's reason.
   *
   * @param answer a SUCCEEDED answer with the channel's refund id, or a FAILED one
   * @throws IllegalArgumentException for an answer that is neither (PENDING, NOT_FOUND): nothing is
   *     known to apply
   * @throws dev.payrelay.ledger.refund.RefundRefused as {@link RefundOutcomes#succeeded} and {@link
   *     RefundOutcomes#failed}: the answer contradicts the refund's recorded outcome, or is invalid
   */
  public RefundOutcome applyAnswer(String refundId, ChannelRefundResult answer) {
    return switch (answer.status()) {
      case SUCCEEDED -> outcomes.succeeded(refundId, answer.channelRefundId());
      case FAILED ->
          outcomes.failed(
              refundId,
              answer.failureReason() == null || answer.failureReason().isBlank()
                  ? FAILED_WITHOUT_REASON
                  : answer.failureReason());
      case PENDING, NOT_FOUND ->
          throw new IllegalArgumentException(
              "nothing to apply from a " + answer.status() + " answer");
    };
  }

  /**
   * Records an UNRECORDED_REFUND item's refund as the channel's report of it would: the statement's
   * line (the channel's refund id, its amount, SUCCEEDED, no number of ours) applied through {@link
   * RefundReports#apply}, so it is recorded once per channel refund id as origin CHANNEL with a
   * {@code REFUND_NOT_REQUESTED} exception, or found recorded (REFUND_DUPLICATE), or refused as a
   * REFUND_MISMATCH exception (e.g. more than was captured).
   *
   * @param payment the refunded payment
   * @param item the UNRECORDED_REFUND item (its {@code channelTxnId} and {@code channelAmount})
   * @return the report's outcome, as a callback's would be
   */
  public LedgerResult recordChannelRefund(PaymentRow payment, ReconciliationItem item) {
    RefundReport report =
        new RefundReport(
            item.channelTxnId(), null, item.channelAmount(), ChannelRefundStatus.SUCCEEDED, null);
    VerifiedCallback asCallback =
        new VerifiedCallback(
            "statement:" + item.statementDate() + ":" + item.channelTxnId(),
            payment.merchantId(),
            payment.paymentId(),
            payment.channelTxnId(),
            item.channelAmount(),
            ChannelPaymentStatus.UNKNOWN,
            List.of(report));
    return reports.apply(payment.paymentId(), asCallback, null);
  }
}

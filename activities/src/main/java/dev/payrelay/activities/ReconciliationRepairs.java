package dev.payrelay.activities;

import dev.payrelay.domain.channel.CallbackOutcome;
import dev.payrelay.domain.channel.ChannelException;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.ChannelQueryResult;
import dev.payrelay.ledger.checks.RepairStatus;
import dev.payrelay.ledger.payment.EntitlementStore;
import dev.payrelay.ledger.payment.GrantOutcome;
import dev.payrelay.ledger.payment.LedgerResult;
import dev.payrelay.ledger.payment.PaymentLedger;
import dev.payrelay.ledger.payment.PaymentNotPaidException;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.ledger.reconciliation.Reconciliation;
import dev.payrelay.ledger.reconciliation.ReconciliationItem;
import dev.payrelay.workflows.activities.ReconciliationFailure;
import dev.payrelay.workflows.activities.RepairResult;
import io.temporal.failure.ApplicationFailure;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one reconciliation item's repair and records its outcome on the item. Each effect is
 * idempotent (the ledger's confirm, the entitlement grant, the refund's outcome, a channel refund
 * recorded by its channel id), so a retried or repeated repair changes nothing twice.
 */
final class ReconciliationRepairs {

  private static final Logger log = LoggerFactory.getLogger(ReconciliationRepairs.class);

  private final Reconciliation store;
  private final ReconciliationChannels channels;
  private final PaymentLedger ledger;
  private final PaymentStore payments;
  private final EntitlementStore entitlements;
  private final ReconciliationRefundRepairs refunds;

  ReconciliationRepairs(
      Reconciliation store,
      ReconciliationChannels channels,
      PaymentLedger ledger,
      PaymentStore payments,
      EntitlementStore entitlements) {
    this.store = store;
    this.channels = channels;
    this.ledger = ledger;
    this.payments = payments;
    this.entitlements = entitlements;
    this.refunds = new ReconciliationRefundRepairs(store, channels, payments);
  }

  /**
   * Repairs the item unless it is DONE already; see {@code ReconciliationActivities#repair}.
   *
   * @throws ApplicationFailure {@code ITEM_NOT_FOUND}; channel failures as {@link
   *     ActivityFailures#channel}
   */
  RepairResult repair(long itemId) {
    ReconciliationItem item =
        store
            .item(itemId)
            .orElseThrow(
                () ->
                    ApplicationFailure.newNonRetryableFailure(
                        "no reconciliation item " + itemId,
                        ReconciliationFailure.ITEM_NOT_FOUND.name()));
    if (item.repairStatus() == RepairStatus.DONE) {
      return new RepairResult(
          item.id(), item.repair().name(), RepairStatus.DONE.name(), item.repairDetails());
    }
    RepairResult result = repairOpen(item);
    log.info(
        "recon item {} {} {}: {} {}",
        item.id(),
        item.kind(),
        item.paymentId(),
        result.status(),
        result.details());
    return result;
  }

  private RepairResult repairOpen(ReconciliationItem item) {
    Outcome outcome =
        switch (item.repair()) {
          case QUERY_AND_CONFIRM -> queryAndConfirm(item);
          case REGRANT -> regrant(item);
          case QUERY_REFUND -> refunds.queryRefund(item);
          case RECORD_CHANNEL_REFUND -> refunds.recordChannelRefund(item);
          case EXCEPTION, REVIEW ->
              new Outcome(
                  RepairStatus.DONE,
                  item.exceptionId() == null
                      ? "recorded for review"
                      : "recorded for review as payment_exception " + item.exceptionId());
        };
    store.markRepaired(item.id(), outcome.status(), outcome.details());
    return new RepairResult(
        item.id(), item.repair().name(), outcome.status().name(), outcome.details());
  }

  /** A repair's end: DONE or FAILED, and what it did or why, for people. */
  record Outcome(RepairStatus status, String details) {}

  private Outcome queryAndConfirm(ReconciliationItem item) {
    PaymentRow payment = payments.find(item.paymentId()).orElse(null);
    if (payment == null) {
      return new Outcome(RepairStatus.FAILED, "no payment " + item.paymentId());
    }
    ChannelQueryResult answer;
    try {
      answer = channels.forMerchant(item.channel(), payment.merchantId()).query(item.paymentId());
    } catch (ChannelException e) {
      // Unknown outcome: the item shows FAILED until a retry (or the next run) gets an answer.
      store.markRepaired(item.id(), RepairStatus.FAILED, "channel query failed: " + e.getMessage());
      throw ActivityFailures.channel(e);
    }
    if (answer.status() != ChannelPaymentStatus.PAID) {
      return new Outcome(
          RepairStatus.FAILED,
          "channel query answered " + answer.status() + " though its statement says PAID; review");
    }
    LedgerResult result =
        ledger.applyAnswer(payment, "recon:" + item.id(), answer, PaymentLedger.QUERY);
    boolean paid =
        result.outcome() == CallbackOutcome.CONFIRMED
            || result.outcome() == CallbackOutcome.DUPLICATE;
    return new Outcome(
        paid ? RepairStatus.DONE : RepairStatus.FAILED,
        "ledger " + result.outcome() + ": " + result.detail());
  }

  private Outcome regrant(ReconciliationItem item) {
    try {
      GrantOutcome granted = entitlements.grant(item.paymentId());
      return new Outcome(
          RepairStatus.DONE,
          "granted " + granted.newlyGranted() + ", already " + granted.alreadyGranted());
    } catch (PaymentNotPaidException e) {
      return new Outcome(RepairStatus.FAILED, e.getMessage());
    }
  }
}

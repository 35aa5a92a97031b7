package dev.payrelay.activities;

import dev.payrelay.domain.channel.ChannelRegistry;
import dev.payrelay.ledger.payment.EntitlementStore;
import dev.payrelay.ledger.payment.PaymentLedger;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.ledger.reconciliation.Reconciliation;
import dev.payrelay.ledger.reconciliation.RunStatus;
import dev.payrelay.workflows.ReconciliationSummary;
import dev.payrelay.workflows.activities.ComparedOurSide;
import dev.payrelay.workflows.activities.ComparedPage;
import dev.payrelay.workflows.activities.FinishRunRequest;
import dev.payrelay.workflows.activities.OurSideResult;
import dev.payrelay.workflows.activities.PageResult;
import dev.payrelay.workflows.activities.ReconcilePageRequest;
import dev.payrelay.workflows.activities.ReconciliationActivities;
import dev.payrelay.workflows.activities.ReconciliationDay;
import dev.payrelay.workflows.activities.ReconciliationFailure;
import dev.payrelay.workflows.activities.RepairBatchRequest;
import dev.payrelay.workflows.activities.RepairBatchResult;
import dev.payrelay.workflows.activities.RepairRequest;
import dev.payrelay.workflows.activities.RepairResult;
import io.temporal.activity.Activity;
import io.temporal.failure.ApplicationFailure;
import java.time.LocalDate;
import java.util.List;

/**
 * Reconciliation steps over the {@link Reconciliation} store and the channel adapters: a page is
 * fetched and compared inside one activity, so its lines never reach the workflow's history; a
 * batch of repairs walks the day's open items inside one activity ({@link
 * ReconciliationBatchRepairs}).
 */
public final class ReconciliationActivitiesImpl implements ReconciliationActivities {

  private final Reconciliation store;
  private final ReconciliationChannels channels;
  private final StatementComparisons comparisons;
  private final ReconciliationRepairs repairs;
  private final ReconciliationBatchRepairs batches;

  /**
   * Activities over the store, the channels' merchant accounts (statements of every account; a
   * payment's query through its own account) and the ledger's stores.
   */
  public ReconciliationActivitiesImpl(
      Reconciliation store,
      ChannelRegistry channels,
      PaymentLedger ledger,
      PaymentStore payments,
      EntitlementStore entitlements) {
    this.store = store;
    this.channels = new ReconciliationChannels(channels);
    this.comparisons = new StatementComparisons(store, this.channels);
    this.repairs = new ReconciliationRepairs(store, this.channels, ledger, payments, entitlements);
    this.batches = new ReconciliationBatchRepairs(store, repairs);
  }

  @Override
  public void startRun(ReconciliationDay day) {
    channels.requireChannel(day.channel());
    store.startRun(day.channel(), ReconciliationChannels.day(day.date()));
  }

  @Override
  public PageResult reconcilePage(ReconcilePageRequest r) {
    StatementComparisons.Compared page = comparisons.page(r);
    return new PageResult(page.nextPageToken(), page.lines(), List.copyOf(page.openIds()));
  }

  @Override
  public ComparedPage comparePage(ReconcilePageRequest r) {
    StatementComparisons.Compared page = comparisons.page(r);
    return new ComparedPage(page.nextPageToken(), page.lines(), page.openIds().size());
  }

  @Override
  public OurSideResult ourSide(ReconciliationDay day) {
    StatementComparisons.Compared ours = comparisons.ourSide(day);
    return new OurSideResult(ours.lines(), ours.openIds());
  }

  @Override
  public ComparedOurSide compareOurSide(ReconciliationDay day) {
    StatementComparisons.Compared ours = comparisons.ourSide(day);
    return new ComparedOurSide(ours.lines(), ours.openIds().size());
  }

  @Override
  public RepairResult repair(RepairRequest r) {
    return repairs.repair(r.itemId());
  }

  @Override
  public RepairBatchResult repairBatch(RepairBatchRequest request) {
    return batches.repairBatch(request, Activity.getExecutionContext());
  }

  @Override
  public ReconciliationSummary finishRun(FinishRunRequest r) {
    LocalDate date = ReconciliationChannels.day(r.date());
    try {
      store.finishRun(
          r.channel(),
          date,
          RunStatus.valueOf(r.status()),
          r.pagesRead(),
          r.linesRead(),
          r.error());
    } catch (IllegalStateException | IllegalArgumentException e) {
      throw ApplicationFailure.newNonRetryableFailureWithCause(
          e.getMessage(), ReconciliationFailure.INVALID_REQUEST.name(), e);
    }
    return ReconciliationSummaries.of(store.summary(r.channel(), date), r.date());
  }
}

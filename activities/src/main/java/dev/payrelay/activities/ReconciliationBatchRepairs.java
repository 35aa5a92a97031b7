package dev.payrelay.activities;

import dev.payrelay.ledger.checks.RepairStatus;
import dev.payrelay.ledger.reconciliation.Reconciliation;
import dev.payrelay.workflows.activities.ReconciliationFailure;
import dev.payrelay.workflows.activities.RepairBatchRequest;
import dev.payrelay.workflows.activities.RepairBatchResult;
import dev.payrelay.workflows.activities.RepairResult;
import io.temporal.activity.ActivityExecutionContext;
import io.temporal.failure.ApplicationFailure;
import java.time.LocalDate;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Repairs a batch of a day's open items inside one activity: walks them by id past the request's
 * cursor, repairs each through {@link ReconciliationRepairs}, and heartbeats a {@link
 * BatchProgress} after each, so a retried attempt (Temporal passes it the last heartbeat) resumes
 * after the last item finished and no item is repaired twice by one batch. See {@code
 * ReconciliationActivities#repairBatch} for the contract.
 */
final class ReconciliationBatchRepairs {

  private static final Logger log = LoggerFactory.getLogger(ReconciliationBatchRepairs.class);

  /**
   * Heartbeat details of a batch: what its attempts did so far.
   *
   * @param cursor the greatest item id finished (DONE or left FAILED)
   * @param done items repaired DONE
   * @param failed items left FAILED
   * @param retryingItemId the item whose retryable failure ended the last attempt, else 0
   * @param failures how often that item's repair failed retryably
   */
  public record BatchProgress(
      long cursor, int done, int failed, long retryingItemId, int failures) {

    static BatchProgress after(long cursor) {
      return new BatchProgress(cursor, 0, 0, 0, 0);
    }

    int handled() {
      return done + failed;
    }

    BatchProgress passed(long itemId, boolean isDone) {
      return new BatchProgress(itemId, done + (isDone ? 1 : 0), failed + (isDone ? 0 : 1), 0, 0);
    }

    BatchProgress retrying(long itemId, int itemFailures) {
      return new BatchProgress(cursor, done, failed, itemId, itemFailures);
    }
  }

  private final Reconciliation store;
  private final ReconciliationRepairs repairs;

  ReconciliationBatchRepairs(Reconciliation store, ReconciliationRepairs repairs) {
    this.store = store;
    this.repairs = repairs;
  }

  /**
   * Repairs the next batch.
   *
   * @throws ApplicationFailure {@code INVALID_REQUEST} for a bad date or count; the retryable
   *     failure of an item below its attempts
   */
  RepairBatchResult repairBatch(RepairBatchRequest r, ActivityExecutionContext context) {
    if (r.maxItems() <= 0 || r.attemptsPerItem() <= 0) {
      throw ApplicationFailure.newNonRetryableFailure(
          "maxItems and attemptsPerItem must be positive: " + r,
          ReconciliationFailure.INVALID_REQUEST.name());
    }
    LocalDate date = ReconciliationChannels.day(r.date());
    BatchProgress p =
        context
            .getHeartbeatDetails(BatchProgress.class)
            .orElseGet(() -> BatchProgress.after(r.afterItemId()));
    int left = r.maxItems() - p.handled();
    List<Long> ids = left <= 0 ? List.of() : store.openItemIds(r.channel(), date, p.cursor(), left);
    for (long id : ids) {
      p = repairOne(id, p, r.attemptsPerItem(), context);
      context.heartbeat(p);
    }
    log.info(
        "recon {} {}: batch after item {}: {} done, {} failed, up to item {}",
        r.channel(),
        date,
        r.afterItemId(),
        p.done(),
        p.failed(),
        p.cursor());
    return new RepairBatchResult(p.done(), p.failed(), p.cursor(), p.handled() >= r.maxItems());
  }

  /**
   * One item: DONE or FAILED as its repair ends. A retryable failure (channel unavailable) below
   * {@code attemptsPerItem} is recorded in the heartbeat and rethrown, so Temporal retries the
   * batch with backoff from this item; at the limit, or non-retryable, the item is passed FAILED.
   */
  private BatchProgress repairOne(
      long itemId, BatchProgress p, int attemptsPerItem, ActivityExecutionContext context) {
    try {
      RepairResult result = repairs.repair(itemId);
      return p.passed(itemId, RepairStatus.DONE.name().equals(result.status()));
    } catch (ApplicationFailure e) {
      int failures = (p.retryingItemId() == itemId ? p.failures() : 0) + 1;
      if (e.isNonRetryable() || failures >= attemptsPerItem) {
        log.warn(
            "recon item {}: left FAILED after {} failed attempt(s): {}: {}",
            itemId,
            failures,
            e.getType(),
            e.getOriginalMessage());
        return p.passed(itemId, false);
      }
      context.heartbeat(p.retrying(itemId, failures));
      throw e;
    }
  }
}

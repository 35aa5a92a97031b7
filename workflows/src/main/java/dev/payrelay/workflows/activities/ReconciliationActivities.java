package dev.payrelay.workflows.activities;

import dev.payrelay.workflows.ReconciliationSummary;
import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/**
 * The steps of a day's reconciliation against a channel's statement. Type names are prefixed {@code
 * Recon}. Every step is idempotent: gaps are recorded under a unique key, repairs skip items
 * already DONE and run only idempotent effects (the ledger's confirm, the entitlement grant).
 * Failures are {@link ReconciliationFailure} types.
 *
 * <p>Two shapes: runs that repair in batches call {@link #comparePage}, {@link #compareOurSide} and
 * {@link #repairBatch}; runs started before that change ({@code ReconciliationWorkflowImpl}'s
 * version {@code batched-repairs} absent) call {@link #reconcilePage}, {@link #ourSide} and {@link
 * #repair} per item, which stay until no such run is left.
 */
@ActivityInterface(namePrefix = "Recon")
public interface ReconciliationActivities {

  /**
   * Marks the day's run RUNNING (a new row, or the existing one restarted with its counts reset).
   *
   * @throws io.temporal.failure.ApplicationFailure {@code UNKNOWN_CHANNEL}, {@code INVALID_REQUEST}
   */
  @ActivityMethod
  void startRun(ReconciliationDay day);

  /**
   * Fetches ONE statement page from the channel and compares it with our tables inside the
   * activity, recording its gaps; heartbeats its progress (page token, lines compared). The page's
   * lines never leave the activity.
   *
   * @throws io.temporal.failure.ApplicationFailure {@code CHANNEL_UNAVAILABLE} (retryable), {@code
   *     CHANNEL_REFUSED}, {@code UNKNOWN_CHANNEL}, {@code INVALID_REQUEST}
   */
  @ActivityMethod
  PageResult reconcilePage(ReconcilePageRequest request);

  /**
   * Walks our side: reads the day's statement transaction ids again (heartbeating per page) and
   * records our PAID payments of that day the statement has no record of (MISSING_FROM_STATEMENT,
   * for review), and our refunds SUCCEEDED that day it has no record of
   * (REFUND_MISSING_FROM_STATEMENT, for review).
   *
   * @throws io.temporal.failure.ApplicationFailure as {@link #reconcilePage}
   */
  @ActivityMethod
  OurSideResult ourSide(ReconciliationDay day);

  /**
   * Runs one item's repair and marks it DONE or FAILED: QUERY_AND_CONFIRM asks the channel and, if
   * PAID, confirms through the ledger (source QUERY; one PaymentConfirmed at most, a later callback
   * is a DUPLICATE); REGRANT grants the entitlements again (idempotent); QUERY_REFUND asks the
   * channel for our refund by our refund number and records a SUCCEEDED or FAILED answer (one
   * PaymentRefunded at most); RECORD_CHANNEL_REFUND records a refund made at the channel once, by
   * its channel refund id, as origin CHANNEL; EXCEPTION and REVIEW were recorded when found, so
   * they are only marked DONE. An item already DONE is returned unchanged.
   *
   * @throws io.temporal.failure.ApplicationFailure {@code ITEM_NOT_FOUND}, {@code
   *     CHANNEL_UNAVAILABLE} (retryable; the item is FAILED meanwhile), {@code CHANNEL_REFUSED}
   */
  @ActivityMethod
  RepairResult repair(RepairRequest request);

  /**
   * As {@link #reconcilePage} (the same comparison, the same gaps recorded), answering in counts
   * only: used by runs that repair in batches, which never need the items' ids.
   *
   * @throws io.temporal.failure.ApplicationFailure as {@link #reconcilePage}
   */
  @ActivityMethod
  ComparedPage comparePage(ReconcilePageRequest request);

  /**
   * As {@link #ourSide}, answering in counts only (see {@link #comparePage}).
   *
   * @throws io.temporal.failure.ApplicationFailure as {@link #reconcilePage}
   */
  @ActivityMethod
  ComparedOurSide compareOurSide(ReconciliationDay day);

  /**
   * Repairs the day's next open items (PENDING or FAILED) after the request's cursor, in id order,
   * up to {@code maxItems}, each as {@link #repair} does, heartbeating after each item with where
   * it is; a retried attempt resumes from its last heartbeat, so no item is repaired twice by one
   * batch. An item whose repair fails retryably fails the attempt (Temporal retries it with
   * backoff) until it has failed {@code attemptsPerItem} times; then it stays FAILED and the batch
   * goes on. Items that end FAILED, or fail non-retryably, are counted and passed.
   *
   * @throws io.temporal.failure.ApplicationFailure {@code CHANNEL_UNAVAILABLE} (retryable, as
   *     above), {@code INVALID_REQUEST} for a date that is not ISO-8601 or a count that is not
   *     positive
   */
  @ActivityMethod
  RepairBatchResult repairBatch(RepairBatchRequest request);

  /**
   * Records the run's end and counts; returns the day's summary.
   *
   * @throws io.temporal.failure.ApplicationFailure {@code INVALID_REQUEST} if the day was never
   *     started
   */
  @ActivityMethod
  ReconciliationSummary finishRun(FinishRunRequest request);
}

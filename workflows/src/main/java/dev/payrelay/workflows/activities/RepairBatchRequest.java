package dev.payrelay.workflows.activities;

/**
 * Argument of {@link ReconciliationActivities#repairBatch}: the next batch of a day's open items.
 *
 * @param channel the channel name
 * @param date the statement day, ISO-8601 ({@code yyyy-MM-dd})
 * @param afterItemId repair only items with a greater id: 0 for the first batch of a walk, else the
 *     previous batch's {@link RepairBatchResult#lastItemId()}
 * @param maxItems at most this many items (positive)
 * @param attemptsPerItem how often one item's repair may fail retryably (channel unavailable)
 *     before it is left FAILED for the day's next run and the batch moves on (positive)
 */
public record RepairBatchRequest(
    String channel, String date, long afterItemId, int maxItems, int attemptsPerItem) {}

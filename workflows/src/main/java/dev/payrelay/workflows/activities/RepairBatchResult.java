package dev.payrelay.workflows.activities;

/**
 * What one batch of repairs did.
 *
 * @param done items this batch repaired DONE
 * @param failed items this batch left FAILED (their {@code repair_details} say why)
 * @param lastItemId the greatest item id this batch handled, or the request's {@code afterItemId}
 *     if it handled none: the next batch's cursor
 * @param more true if the batch stopped at {@code maxItems}, so open items may remain past {@code
 *     lastItemId}; false once the walk reached the end of the day's open items
 */
public record RepairBatchResult(int done, int failed, long lastItemId, boolean more) {}

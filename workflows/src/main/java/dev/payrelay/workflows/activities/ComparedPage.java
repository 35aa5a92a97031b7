package dev.payrelay.workflows.activities;

/**
 * What one statement page showed, in counts only: whatever the page's size, its result is a few
 * bytes of history. The open items themselves stay in {@code reconciliation_item}, where {@link
 * ReconciliationActivities#repairBatch} finds them.
 *
 * @param nextPageToken the next page's token, or null after the last page
 * @param linesRead the lines on this page
 * @param openItems the page's gaps whose repair is not DONE (new ones and ones an earlier attempt
 *     or run left PENDING or FAILED); 0 on a re-run of a day already repaired
 */
public record ComparedPage(String nextPageToken, int linesRead, int openItems) {}

package dev.payrelay.workflows.activities;

import java.util.List;

/**
 * What one statement page showed. Small whatever the page's size: counts and item ids only, never
 * the lines.
 *
 * @param nextPageToken the next page's token, or null after the last page
 * @param linesRead the lines on this page
 * @param openItemIds the {@code reconciliation_item}s of this page's gaps whose repair is not DONE:
 *     the ones it found new, and ones an earlier attempt or run left PENDING or FAILED (so a
 *     retried page loses none); empty on a re-run of a day already repaired
 */
public record PageResult(String nextPageToken, int linesRead, List<Long> openItemIds) {

  /** Copies the ids. */
  public PageResult {
    openItemIds = List.copyOf(openItemIds);
  }
}

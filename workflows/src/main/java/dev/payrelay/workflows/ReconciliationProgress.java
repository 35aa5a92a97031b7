package dev.payrelay.workflows;

import dev.payrelay.workflows.activities.ComparedPage;
import dev.payrelay.workflows.activities.RepairBatchResult;

/**
 * Where a day's reconciliation stands, carried from a run to the run it continues as: the phase,
 * the statement's next page, the repair walk's cursor and the counts so far. Immutable; each step
 * returns the next value.
 *
 * @param phase the step the next run starts with
 * @param pageToken the statement page to read next (null for the first), in {@link Phase#STATEMENT}
 * @param pagesRead statement pages read by the day's runs so far
 * @param linesRead statement lines read by the day's runs so far
 * @param repairCursor the greatest item id the repair walk handled (0 before it started)
 * @param repairsDone items the walk repaired DONE
 * @param repairsFailed items the walk left FAILED
 * @param run the run's number within the day's chain of continued runs, from 1
 */
public record ReconciliationProgress(
    Phase phase,
    String pageToken,
    int pagesRead,
    long linesRead,
    long repairCursor,
    int repairsDone,
    int repairsFailed,
    int run) {

  /** The steps of a day, in order. */
  public enum Phase {
    /** Reading and comparing the statement, page by page. */
    STATEMENT,
    /** Walking our side for payments the statement lacks (one step). */
    OUR_SIDE,
    /** Repairing the day's open items, batch by batch. */
    REPAIRS,
    /** Nothing left but recording the run's end. */
    FINISHED
  }

  /** The start of a day. */
  static ReconciliationProgress start() {
    return new ReconciliationProgress(Phase.STATEMENT, null, 0, 0, 0, 0, 0, 1);
  }

  /** After a statement page: the next page, or our side after the last. */
  ReconciliationProgress afterPage(ComparedPage page) {
    String next = page.nextPageToken();
    return new ReconciliationProgress(
        next == null ? Phase.OUR_SIDE : Phase.STATEMENT,
        next,
        pagesRead + 1,
        linesRead + page.linesRead(),
        repairCursor,
        repairsDone,
        repairsFailed,
        run);
  }

  /** After our side: the repairs. */
  ReconciliationProgress afterOurSide() {
    return withPhase(Phase.REPAIRS);
  }

  /** After a repair batch: its cursor and counts, and FINISHED once the walk reached the end. */
  ReconciliationProgress afterBatch(RepairBatchResult batch) {
    return new ReconciliationProgress(
        batch.more() ? Phase.REPAIRS : Phase.FINISHED,
        pageToken,
        pagesRead,
        linesRead,
        batch.lastItemId(),
        repairsDone + batch.done(),
        repairsFailed + batch.failed(),
        run);
  }

  /** The same progress handed to the next run of the chain. */
  ReconciliationProgress nextRun() {
    return new ReconciliationProgress(
        phase, pageToken, pagesRead, linesRead, repairCursor, repairsDone, repairsFailed, run + 1);
  }

  private ReconciliationProgress withPhase(Phase next) {
    return new ReconciliationProgress(
        next, pageToken, pagesRead, linesRead, repairCursor, repairsDone, repairsFailed, run);
  }
}

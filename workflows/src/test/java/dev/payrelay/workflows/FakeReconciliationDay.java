package dev.payrelay.workflows;

import dev.payrelay.workflows.activities.ComparedOurSide;
import dev.payrelay.workflows.activities.ComparedPage;
import dev.payrelay.workflows.activities.FinishRunRequest;
import dev.payrelay.workflows.activities.OurSideResult;
import dev.payrelay.workflows.activities.PageResult;
import dev.payrelay.workflows.activities.ReconcilePageRequest;
import dev.payrelay.workflows.activities.ReconciliationActivities;
import dev.payrelay.workflows.activities.ReconciliationDay;
import dev.payrelay.workflows.activities.RepairBatchRequest;
import dev.payrelay.workflows.activities.RepairBatchResult;
import dev.payrelay.workflows.activities.RepairRequest;
import dev.payrelay.workflows.activities.RepairResult;
import io.temporal.failure.ApplicationFailure;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A statement day in memory behind the batched activities, for workflow tests of any size: {@code
 * pages} pages of {@code gapsPerPage} gaps each ({@code linesPerPage} lines), {@code ourSideGaps}
 * more found on our side; items are numbered as found, recorded once however often a page is read
 * again, and repaired by {@link #repairBatch} as the real one walks them (open items past the
 * cursor, in id order). Records every call for the tests to check.
 */
final class FakeReconciliationDay implements ReconciliationActivities {

  private final int pages;
  private final int linesPerPage;
  private final int gapsPerPage;
  private final int ourSideGaps;

  private final TreeMap<Long, String> items = new TreeMap<>();
  private final Map<String, Long> itemKeys = new HashMap<>();
  private final Map<Long, Integer> repairs = new HashMap<>();
  private final Set<Long> failing = new HashSet<>();
  private final List<String> calls = new ArrayList<>();
  private final List<RepairBatchRequest> batches = new ArrayList<>();
  private final List<FinishRunRequest> finishes = new ArrayList<>();
  private String refusedPageToken;
  private ApplicationFailure batchFailure;

  FakeReconciliationDay(int pages, int linesPerPage, int gapsPerPage, int ourSideGaps) {
    this.pages = pages;
    this.linesPerPage = linesPerPage;
    this.gapsPerPage = gapsPerPage;
    this.ourSideGaps = ourSideGaps;
  }

  /** The repair of these items (numbered from 1 in the order found) ends FAILED. */
  synchronized FakeReconciliationDay failingItems(long... ids) {
    for (long id : ids) {
      failing.add(id);
    }
    return this;
  }

  /** The channel refuses the page with this token (CHANNEL_REFUSED). */
  synchronized FakeReconciliationDay refusingPage(String token) {
    refusedPageToken = token;
    return this;
  }

  /** Every repair batch fails with {@code failure}. */
  synchronized FakeReconciliationDay failingBatches(ApplicationFailure failure) {
    batchFailure = failure;
    return this;
  }

  @Override
  public synchronized void startRun(ReconciliationDay day) {
    calls.add("startRun");
  }

  @Override
  public synchronized ComparedPage comparePage(ReconcilePageRequest r) {
    calls.add("comparePage " + r.pageToken());
    if (r.pageToken() != null && r.pageToken().equals(refusedPageToken)) {
      throw ApplicationFailure.newNonRetryableFailure("line 3 malformed", "CHANNEL_REFUSED");
    }
    int page = r.pageToken() == null ? 0 : Integer.parseInt(r.pageToken().substring(1));
    int open = 0;
    for (int i = 0; i < gapsPerPage; i++) {
      open += record("page " + page + " gap " + i) ? 1 : 0;
    }
    String next = page + 1 < pages ? "p" + (page + 1) : null;
    return new ComparedPage(next, linesPerPage, open);
  }

  @Override
  public synchronized ComparedOurSide compareOurSide(ReconciliationDay day) {
    calls.add("compareOurSide");
    int open = 0;
    for (int i = 0; i < ourSideGaps; i++) {
      open += record("our side " + i) ? 1 : 0;
    }
    return new ComparedOurSide(pages * linesPerPage, open);
  }

  @Override
  public synchronized RepairBatchResult repairBatch(RepairBatchRequest r) {
    calls.add("repairBatch " + r.afterItemId());
    batches.add(r);
    if (batchFailure != null) {
      throw batchFailure;
    }
    int done = 0;
    int failed = 0;
    long last = r.afterItemId();
    for (Map.Entry<Long, String> item : items.tailMap(r.afterItemId(), false).entrySet()) {
      if (done + failed == r.maxItems()) {
        break;
      }
      if (item.getValue().equals("DONE")) {
        continue;
      }
      long id = item.getKey();
      repairs.merge(id, 1, Integer::sum);
      boolean fails = failing.contains(id);
      item.setValue(fails ? "FAILED" : "DONE");
      done += fails ? 0 : 1;
      failed += fails ? 1 : 0;
      last = id;
    }
    return new RepairBatchResult(done, failed, last, done + failed == r.maxItems());
  }

  @Override
  public synchronized ReconciliationSummary finishRun(FinishRunRequest r) {
    calls.add("finishRun " + r.status());
    finishes.add(r);
    Map<String, Integer> byStatus = new HashMap<>();
    items.values().forEach(s -> byStatus.merge(s, 1, Integer::sum));
    return new ReconciliationSummary(
        r.channel(),
        r.date(),
        r.status(),
        1,
        r.pagesRead(),
        r.linesRead(),
        Map.of("UNKNOWN_TRANSACTION", items.size()),
        byStatus,
        r.error());
  }

  @Override
  public PageResult reconcilePage(ReconcilePageRequest request) {
    throw new UnsupportedOperationException("item-by-item runs only");
  }

  @Override
  public OurSideResult ourSide(ReconciliationDay day) {
    throw new UnsupportedOperationException("item-by-item runs only");
  }

  @Override
  public RepairResult repair(RepairRequest request) {
    throw new UnsupportedOperationException("item-by-item runs only");
  }

  synchronized List<String> calls() {
    return List.copyOf(calls);
  }

  synchronized List<RepairBatchRequest> batches() {
    return List.copyOf(batches);
  }

  synchronized List<FinishRunRequest> finishes() {
    return List.copyOf(finishes);
  }

  /** How often each item was repaired, by item id. */
  synchronized Map<Long, Integer> repairsPerItem() {
    return Map.copyOf(repairs);
  }

  synchronized int items() {
    return items.size();
  }

  /** Records a gap once; true if it is open (new, or not DONE). */
  private boolean record(String key) {
    Long id = itemKeys.computeIfAbsent(key, k -> items.size() + 1L);
    items.putIfAbsent(id, "PENDING");
    return !items.get(id).equals("DONE");
  }
}

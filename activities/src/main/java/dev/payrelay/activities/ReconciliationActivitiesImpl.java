package dev.payrelay.activities;

import dev.payrelay.domain.channel.PaymentChannel;
import dev.payrelay.domain.channel.StatementLine;
import dev.payrelay.domain.channel.StatementPage;
import dev.payrelay.sql.EntitlementStore;
import dev.payrelay.sql.PaymentLedger;
import dev.payrelay.sql.PaymentStore;
import dev.payrelay.sql.Reconciliation;
import dev.payrelay.sql.ReconciliationGap;
import dev.payrelay.sql.ReconciliationItem;
import dev.payrelay.sql.RepairStatus;
import dev.payrelay.sql.RunStatus;
import dev.payrelay.workflows.ReconciliationSummary;
import dev.payrelay.workflows.activities.FinishRunRequest;
import dev.payrelay.workflows.activities.OurSideResult;
import dev.payrelay.workflows.activities.PageResult;
import dev.payrelay.workflows.activities.ReconcilePageRequest;
import dev.payrelay.workflows.activities.ReconciliationActivities;
import dev.payrelay.workflows.activities.ReconciliationDay;
import dev.payrelay.workflows.activities.ReconciliationFailure;
import dev.payrelay.workflows.activities.RepairRequest;
import dev.payrelay.workflows.activities.RepairResult;
import io.temporal.activity.Activity;
import io.temporal.failure.ApplicationFailure;
import java.time.LocalDate;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciliation steps over the {@link Reconciliation} store and the channel adapters: a page is
 * fetched and compared inside one activity, so its lines never reach the workflow's history.
 */
public final class ReconciliationActivitiesImpl implements ReconciliationActivities {

  /** Lines compared between heartbeats: a few dozen short lookups, well inside the timeout. */
  private static final int HEARTBEAT_EVERY = 25;

  private static final Logger log = LoggerFactory.getLogger(ReconciliationActivitiesImpl.class);

  /**
   * Heartbeat details: where a page or our-side walk is.
   *
   * @param pageToken the page being worked on (null for the first)
   * @param linesDone lines compared (or, walking our side, statement lines read so far)
   */
  public record Progress(String pageToken, long linesDone) {}

  private final Reconciliation store;
  private final ReconciliationChannels channels;
  private final ReconciliationRepairs repairs;

  /** Activities over the store, the channel adapters (by name) and the ledger's stores. */
  public ReconciliationActivitiesImpl(
      Reconciliation store,
      List<PaymentChannel> channels,
      PaymentLedger ledger,
      PaymentStore payments,
      EntitlementStore entitlements) {
    this.store = store;
    this.channels = new ReconciliationChannels(channels);
    this.repairs = new ReconciliationRepairs(store, this.channels, ledger, payments, entitlements);
  }

  @Override
  public void startRun(ReconciliationDay day) {
    channels.get(day.channel());
    store.startRun(day.channel(), ReconciliationChannels.day(day.date()));
  }

  @Override
  public PageResult reconcilePage(ReconcilePageRequest r) {
    LocalDate date = ReconciliationChannels.day(r.date());
    StatementPage page = channels.statement(r.channel(), date, r.pageToken());
    List<StatementLine> lines = page.lines();
    Set<Long> open = new LinkedHashSet<>();
    for (int from = 0; from < lines.size(); from += HEARTBEAT_EVERY) {
      List<StatementLine> chunk =
          lines.subList(from, Math.min(from + HEARTBEAT_EVERY, lines.size()));
      open.addAll(openIds(store.compare(r.channel(), date, chunk)));
      heartbeat(new Progress(r.pageToken(), from + chunk.size()));
    }
    log.info(
        "recon {} {}: page of {} lines, {} open gaps",
        r.channel(),
        date,
        lines.size(),
        open.size());
    return new PageResult(page.nextPageToken(), lines.size(), List.copyOf(open));
  }

  @Override
  public OurSideResult ourSide(ReconciliationDay day) {
    LocalDate date = ReconciliationChannels.day(day.date());
    Set<String> seen = new HashSet<>();
    String token = null;
    do {
      StatementPage page = channels.statement(day.channel(), date, token);
      page.lines().forEach(line -> seen.add(line.channelTxnId()));
      heartbeat(new Progress(token, seen.size()));
      token = page.nextPageToken();
    } while (token != null);
    List<Long> open = openIds(store.ourSideGaps(day.channel(), date, seen));
    log.info(
        "recon {} {}: our side, {} statement transactions, {} open gaps",
        day.channel(),
        date,
        seen.size(),
        open.size());
    return new OurSideResult(seen.size(), open);
  }

  @Override
  public RepairResult repair(RepairRequest r) {
    return repairs.repair(r.itemId());
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

  private static List<Long> openIds(List<ReconciliationGap> gaps) {
    return gaps.stream()
        .map(ReconciliationGap::item)
        .filter(item -> item.repairStatus() != RepairStatus.DONE)
        .map(ReconciliationItem::id)
        .distinct()
        .toList();
  }

  private static void heartbeat(Progress progress) {
    Activity.getExecutionContext().heartbeat(progress);
  }
}

package dev.payrelay.activities;

import dev.payrelay.domain.channel.StatementLine;
import dev.payrelay.domain.channel.StatementPage;
import dev.payrelay.ledger.checks.RepairStatus;
import dev.payrelay.ledger.reconciliation.Reconciliation;
import dev.payrelay.ledger.reconciliation.ReconciliationGap;
import dev.payrelay.ledger.reconciliation.ReconciliationItem;
import dev.payrelay.workflows.activities.ReconcilePageRequest;
import dev.payrelay.workflows.activities.ReconciliationDay;
import io.temporal.activity.Activity;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The comparing steps of a reconciliation inside an activity (heartbeating as they go): one
 * statement page against our tables, or the whole statement's transaction ids against our PAID
 * payments of the day. Both record their gaps in {@link Reconciliation} and say which are open.
 */
final class StatementComparisons {

  /** Lines compared between heartbeats: a few dozen short lookups, well inside the timeout. */
  private static final int HEARTBEAT_EVERY = 25;

  private static final Logger log = LoggerFactory.getLogger(StatementComparisons.class);

  /**
   * Heartbeat details: where a page or our-side walk is.
   *
   * @param pageToken the page being worked on (null for the first)
   * @param linesDone lines compared (or, walking our side, statement lines read so far)
   */
  public record Progress(String pageToken, long linesDone) {}

  /**
   * A comparison's outcome.
   *
   * @param nextPageToken the statement's next page (null after the last, and for our side)
   * @param lines lines compared, or for our side the statement's distinct transactions
   * @param openIds the items of the gaps found whose repair is not DONE, in the order found
   */
  record Compared(String nextPageToken, int lines, List<Long> openIds) {}

  private final Reconciliation store;
  private final ReconciliationChannels channels;

  StatementComparisons(Reconciliation store, ReconciliationChannels channels) {
    this.store = store;
    this.channels = channels;
  }

  /** Fetches one page and compares it; see {@code ReconciliationActivities#reconcilePage}. */
  Compared page(ReconcilePageRequest r) {
    LocalDate date = ReconciliationChannels.day(r.date());
    ReconciliationChannels.SourcedPage sourced =
        channels.statement(r.channel(), date, r.pageToken());
    StatementPage page = sourced.page();
    List<StatementLine> lines = page.lines();
    Set<Long> open = new LinkedHashSet<>();
    for (int from = 0; from < lines.size(); from += HEARTBEAT_EVERY) {
      List<StatementLine> chunk =
          lines.subList(from, Math.min(from + HEARTBEAT_EVERY, lines.size()));
      open.addAll(openIds(store.compare(r.channel(), sourced.account(), date, chunk)));
      heartbeat(new Progress(r.pageToken(), from + chunk.size()));
    }
    log.info(
        "recon {} {}: page of {} lines, {} open gaps",
        r.channel(),
        date,
        lines.size(),
        open.size());
    return new Compared(page.nextPageToken(), lines.size(), List.copyOf(open));
  }

  /** Reads the whole statement and walks our side; see {@code ReconciliationActivities#ourSide}. */
  Compared ourSide(ReconciliationDay day) {
    LocalDate date = ReconciliationChannels.day(day.date());
    Set<String> seen = new HashSet<>();
    Set<String> refundNos = new HashSet<>();
    String token = null;
    do {
      StatementPage page = channels.statement(day.channel(), date, token).page();
      for (StatementLine line : page.lines()) {
        seen.add(line.channelTxnId());
        if (line.refundNo() != null) {
          refundNos.add(line.refundNo());
        }
      }
      heartbeat(new Progress(token, seen.size()));
      token = page.nextPageToken();
    } while (token != null);
    ZoneId zone = channels.zone(day.channel());
    List<ReconciliationGap> gaps = store.ourSideGaps(day.channel(), date, zone, seen, refundNos);
    List<Long> open = openIds(gaps);
    log.info(
        "recon {} {} ({}): our side, {} statement transactions, {} open gaps {}",
        day.channel(),
        date,
        zone,
        seen.size(),
        open.size(),
        gaps.stream().map(g -> g.item().paymentId()).toList());
    return new Compared(null, seen.size(), open);
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

package dev.payrelay.simulators.sandbox;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.ChannelRefundStatus;
import dev.payrelay.domain.channel.StatementLine;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The simulator's daily statement (bill): every payment PAID at the simulator whose paid_at falls
 * on the UTC date, every refund it made SUCCEEDED that day (kind REFUND, the refund's id as
 * channel_txn_id, our refund number as refund_no, status REFUNDED), plus lines a test injected for
 * that date, ordered by occurred_at then channel_txn_id and cut into pages. A refund can be left
 * out of the statement ({@link #omitRefund}) or listed with another amount ({@link
 * #misstateRefund}), to exercise reconciliation's refund gaps.
 *
 * <p>A page token is opaque to callers; inside it is the date and the offset of the page's first
 * line. Offsets are stable for a day whose payments are all made (later payments sort after every
 * earlier one), which is the case a reconciliation reads.
 */
public final class SimulatedStatement {

  /** One page: its lines and the next page's token, null on the last page. */
  record Page(List<StatementLine> lines, String nextPageToken) {}

  private static final Comparator<StatementLine> ORDER =
      Comparator.comparing(StatementLine::occurredAt).thenComparing(StatementLine::channelTxnId);

  private final SimulatedPayments payments;
  private final SimulatedRefunds refunds;
  private final ConcurrentHashMap<LocalDate, List<StatementLine>> injected =
      new ConcurrentHashMap<>();
  private final Set<String> omitted = ConcurrentHashMap.newKeySet();
  private final ConcurrentHashMap<String, Money> misstated = new ConcurrentHashMap<>();

  public SimulatedStatement(SimulatedPayments payments, SimulatedRefunds refunds) {
    this.payments = payments;
    this.refunds = refunds;
  }

  /**
   * Adds a line to the statement of {@code date}, whatever its own occurred_at says.
   *
   * @throws NullPointerException if the line lacks a txn id, kind, amount, status or time
   */
  public void add(LocalDate date, StatementLine line) {
    Objects.requireNonNull(line.channelTxnId(), "channelTxnId");
    Objects.requireNonNull(line.kind(), "kind");
    Objects.requireNonNull(line.amount(), "amount");
    Objects.requireNonNull(line.status(), "status");
    Objects.requireNonNull(line.occurredAt(), "occurredAt");
    injected.computeIfAbsent(date, d -> new CopyOnWriteArrayList<>()).add(line);
  }

  /** Leaves the refund {@code refundId} ({@code sbr_…}) out of every statement from now on. */
  public void omitRefund(String refundId) {
    omitted.add(Objects.requireNonNull(refundId, "refundId"));
  }

  /**
   * Lists the refund {@code refundId} with {@code amount} (minor units, any currency) instead of
   * what it gave back, on every statement from now on.
   */
  public void misstateRefund(String refundId, Money amount) {
    misstated.put(
        Objects.requireNonNull(refundId, "refundId"), Objects.requireNonNull(amount, "amount"));
  }

  /**
   * One page of the statement of {@code date}.
   *
   * @param pageToken null for the first page, else a token from a previous page of the same date
   * @param pageSize the most lines to return, positive
   * @throws SimulatorException 400 for a token that is not one of ours or names another date
   */
  Page page(LocalDate date, String pageToken, int pageSize) {
    List<StatementLine> all = lines(date);
    int from = pageToken == null ? 0 : Math.min(offset(date, pageToken), all.size());
    int to = (int) Math.min((long) from + pageSize, all.size());
    String next = to < all.size() ? token(date, to) : null;
    return new Page(List.copyOf(all.subList(from, to)), next);
  }

  private List<StatementLine> lines(LocalDate date) {
    List<StatementLine> lines = new ArrayList<>();
    for (SimulatedPayment p : payments.all()) {
      if (p.status() == ChannelPaymentStatus.PAID
          && p.paidAt().atZone(ZoneOffset.UTC).toLocalDate().equals(date)) {
        lines.add(line(p));
      }
    }
    for (SimulatedRefund r : refunds.all()) {
      if (r.status() == ChannelRefundStatus.SUCCEEDED
          && r.createdAt().atZone(ZoneOffset.UTC).toLocalDate().equals(date)
          && !omitted.contains(r.refundId())) {
        lines.add(
            new StatementLine(
                r.refundId(),
                r.paymentId(),
                StatementLine.REFUND,
                misstated.getOrDefault(r.refundId(), r.amount()),
                ChannelPaymentStatus.REFUNDED,
                r.createdAt(),
                r.refundNo()));
      }
    }
    lines.addAll(injected.getOrDefault(date, List.of()));
    lines.sort(ORDER);
    return lines;
  }

  private static StatementLine line(SimulatedPayment p) {
    return new StatementLine(
        p.channelTxnId(),
        p.paymentId(),
        "PAYMENT",
        p.reportedAmount(),
        ChannelPaymentStatus.PAID,
        p.paidAt());
  }

  private static String token(LocalDate date, int offset) {
    byte[] raw = (date + "/" + offset).getBytes(StandardCharsets.UTF_8);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
  }

  private static int offset(LocalDate date, String token) {
    String raw;
    try {
      raw = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw new SimulatorException(400, "bad page_token " + token);
    }
    String prefix = date + "/";
    if (!raw.startsWith(prefix) || !raw.substring(prefix.length()).matches("[0-9]{1,9}")) {
      throw new SimulatorException(400, "page_token " + token + " is not for " + date);
    }
    return Integer.parseInt(raw.substring(prefix.length()));
  }
}

package dev.payrelay.tools.soak;

import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.domain.event.EventType;
import dev.payrelay.ledger.payment.LedgerSnapshot;
import dev.payrelay.tools.soak.SoakAudit.Violation;
import dev.payrelay.tools.soak.SoakTap.Delivery;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What the soak's queue received per payment, held to the order contract of docs/consumers.md
 * "Ordering" and to one confirmation per paid payment:
 *
 * <ul>
 *   <li>{@code ORDER}: a payment's outbox events, by {@code payment_seq}, are not 1, 2, … n, do not
 *       start with {@code PaymentCreated}, or disagree with the order they were written in (outbox
 *       {@code seq}); so a consumer ordering by {@code payment_seq} would not restore the payment's
 *       story;
 *   <li>{@code SEQ_HEADER}: a delivered message whose {@code payment_seq} or {@code aggregate_id}
 *       header is missing or not its outbox row's;
 *   <li>{@code PAID_NOTICE}: a PAID (or since refunded) payment whose {@code PaymentConfirmed}
 *       reached the queue under other than exactly one event id (0 or 2+), or an unpaid payment
 *       with any.
 * </ul>
 *
 * A first copy that arrived after a later event of its payment (by {@code payment_seq}) is counted
 * as {@link Result#outOfOrder()}, not a violation: payrelay does not hold a later event back until
 * the earlier ones are sent, so after a fault one payment's messages can reach the queue out of
 * order, and consumers put them back by {@code payment_seq} (docs/consumers.md "Ordering").
 */
final class SoakDeliveries {

  /**
   * The outcome.
   *
   * @param outOfOrder first copies that arrived after a later event of their payment
   */
  record Result(List<Violation> violations, int outOfOrder) {}

  private SoakDeliveries() {}

  /** Checks {@code arrivals} (in arrival order) against {@code ledger}. */
  static Result of(LedgerSnapshot ledger, List<Delivery> arrivals) {
    List<Violation> violations = new ArrayList<>();
    Map<String, List<LedgerSnapshot.Event>> events =
        ledger.events().stream().collect(Collectors.groupingBy(LedgerSnapshot.Event::paymentId));
    events.forEach((payment, written) -> order(payment, written, violations));
    Map<String, LedgerSnapshot.Event> byId = new HashMap<>();
    ledger.events().forEach(e -> byId.put(e.eventId(), e));
    Set<String> wrongHeaders = new HashSet<>();
    for (Delivery d : arrivals) {
      LedgerSnapshot.Event e = byId.get(d.messageId());
      if (e != null
          && (!Objects.equals(d.paymentSeq(), e.paymentSeq())
              || !e.paymentId().equals(d.paymentId()))
          && wrongHeaders.add(d.messageId())) {
        violations.add(
            new Violation(
                "SEQ_HEADER",
                e.paymentId(),
                "%s %s arrived with payment_seq %s, aggregate_id %s; its row has %d"
                    .formatted(
                        e.eventType(),
                        e.eventId(),
                        d.paymentSeq(),
                        d.paymentId(),
                        e.paymentSeq())));
      }
    }
    paidNotices(ledger, arrivals, violations);
    return new Result(violations, outOfOrder(arrivals));
  }

  /** {@code written}: one payment's outbox rows, in any order. */
  private static void order(
      String payment, List<LedgerSnapshot.Event> written, List<Violation> violations) {
    List<LedgerSnapshot.Event> bySeq =
        written.stream().sorted(Comparator.comparingInt(LedgerSnapshot.Event::paymentSeq)).toList();
    List<LedgerSnapshot.Event> byWrite =
        written.stream().sorted(Comparator.comparingLong(LedgerSnapshot.Event::seq)).toList();
    boolean numbered = true;
    for (int i = 0; i < bySeq.size(); i++) {
      numbered &= bySeq.get(i).paymentSeq() == i + 1;
    }
    if (!numbered
        || !bySeq.equals(byWrite)
        || !EventType.PAYMENT_CREATED.wireName().equals(bySeq.get(0).eventType())) {
      violations.add(
          new Violation(
              "ORDER",
              payment,
              "by payment_seq "
                  + bySeq.stream()
                      .map(e -> e.paymentSeq() + " " + e.eventType() + " (seq " + e.seq() + ")")
                      .collect(Collectors.joining(", "))));
    }
  }

  private static void paidNotices(
      LedgerSnapshot ledger, List<Delivery> arrivals, List<Violation> violations) {
    Map<String, Set<String>> confirmations = new HashMap<>();
    arrivals.stream()
        .filter(d -> EventType.PAYMENT_CONFIRMED.wireName().equals(d.eventType()))
        .forEach(
            d ->
                confirmations
                    .computeIfAbsent(d.paymentId(), p -> new HashSet<>())
                    .add(d.messageId()));
    for (LedgerSnapshot.Payment p : ledger.payments()) {
      Set<String> ids = confirmations.getOrDefault(p.paymentId(), Set.of());
      boolean paid = PaymentStatus.valueOf(p.status()).wasPaid();
      if (ids.size() != (paid ? 1 : 0)) {
        violations.add(
            new Violation(
                "PAID_NOTICE",
                p.paymentId(),
                p.status()
                    + ", PaymentConfirmed on the queue under "
                    + ids.size()
                    + " event id(s) "
                    + ids));
      }
    }
  }

  /** First copies whose payment_seq is below one already arrived for the same payment. */
  private static int outOfOrder(List<Delivery> arrivals) {
    Map<String, Integer> highest = new HashMap<>();
    Set<String> seen = new HashSet<>();
    int late = 0;
    for (Delivery d : arrivals) {
      if (d.paymentSeq() == null || d.paymentId() == null || !seen.add(d.messageId())) {
        continue;
      }
      int top = highest.getOrDefault(d.paymentId(), 0);
      if (d.paymentSeq() < top) {
        late++;
      }
      highest.put(d.paymentId(), Math.max(top, d.paymentSeq()));
    }
    return late;
  }
}

package dev.payrelay.tools.soak;

import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.domain.event.EventType;
import dev.payrelay.ledger.payment.LedgerSnapshot;
import dev.payrelay.ledger.payment.Notifications;
import dev.payrelay.tools.soak.SoakBuyers.Pay;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The soak's own counts, its definition of "nothing lost, nothing twice" (not a copy of {@code
 * payrelay check}): what the buyers were told, the database and the soak's queue must agree.
 *
 * <ul>
 *   <li>{@code NOT_PAID}: the sandbox took the money, the payment is not PAID;
 *   <li>{@code PAID_UNPAID}: PAID although nobody paid it at the sandbox;
 *   <li>{@code CONFIRMED}: a PAID payment without exactly one {@code PaymentConfirmed}, or an
 *       unpaid one with any;
 *   <li>{@code GRANTS}: a PAID payment whose buyer's entitlements are not exactly its courses, or
 *       an unpaid one with any;
 *   <li>{@code NOT_SENT}: an outbox event not SENT (PENDING, DISPATCHED, DEAD, …);
 *   <li>{@code MESSAGE_LOST}: an event SENT whose message never reached the soak's queue;
 *   <li>{@code UNKNOWN_MESSAGE}: a message on the queue for no event of the outbox;
 *   <li>{@code NOTIFIED}: a PAID payment without exactly one {@code courses-unlocked} notification
 *       for its buyer from its {@code PaymentConfirmed} (the {@code notifications} consumer's
 *       effect), or an unpaid one with any;
 *   <li>{@code EXCEPTION}: a recorded payment exception (the soak sends no disagreeing callback);
 *   <li>{@code MISSING}: the API answered a payment id that is not in the database;
 *   <li>the queue's order and confirmations per payment, {@link SoakDeliveries}: {@code ORDER},
 *       {@code SEQ_HEADER}, {@code PAID_NOTICE};
 *   <li>the latest workflow runs against the ledger, {@link SoakRuns}: {@code RUN_STATE}, {@code
 *       RUN_MISSING}.
 * </ul>
 *
 * "PAID" above includes a payment refunded since, in part or in full (PARTIALLY_REFUNDED, REFUNDED:
 * {@link PaymentStatus#wasPaid()}): it was confirmed, granted and notified once like any other;
 * what its refunds owe is {@link SoakRefundAudit}'s.
 *
 * <p>A message delivered more than once is a redelivery, allowed by design (at-least-once delivery,
 * consumers dedupe on {@code message_id}); it is counted, not a violation. A payment whose pay call
 * got no answer ({@link Pay#UNKNOWN}) is held to nothing about being paid.
 */
final class SoakAudit {

  /** A broken rule: its kind (above), the payment (or null) and what was seen. */
  record Violation(String kind, String paymentId, String detail) {}

  /**
   * The audit's outcome.
   *
   * @param paid payments PAID (or refunded since) in the database
   * @param messages distinct message ids on the queue
   * @param redeliveries deliveries beyond the first, over all message ids
   * @param redelivered message ids delivered more than once
   * @param outOfOrder first copies that arrived after a later event of their payment ({@link
   *     SoakDeliveries.Result#outOfOrder()}; allowed, counted)
   */
  record Result(
      List<Violation> violations,
      int paid,
      int messages,
      int redeliveries,
      int redelivered,
      int outOfOrder) {}

  private SoakAudit() {}

  /**
   * Audits {@code ledger} against what the buyers know ({@code buyers}: payment id to pay state;
   * payments the buyers never heard of were never paid by them), the queue ({@code arrivals}, in
   * arrival order) and Temporal ({@code runs}: each payment's latest run, {@link SoakRuns#latest}).
   */
  static Result of(
      LedgerSnapshot ledger,
      Map<String, Pay> buyers,
      List<SoakTap.Delivery> arrivals,
      SoakRuns.Listed runs) {
    Map<String, Integer> deliveries = SoakTap.counts(arrivals);
    List<Violation> violations = new ArrayList<>();
    int paid = payments(ledger, buyers, violations);
    missing(ledger, buyers.keySet(), violations);
    messages(ledger, deliveries, violations);
    ledger
        .exceptions()
        .forEach(
            x ->
                violations.add(
                    new Violation("EXCEPTION", x.paymentId(), x.kind() + " " + x.status())));
    SoakDeliveries.Result queue = SoakDeliveries.of(ledger, arrivals);
    violations.addAll(queue.violations());
    violations.addAll(SoakRuns.contradictions(ledger.payments(), runs));
    int redeliveries = deliveries.values().stream().mapToInt(count -> count - 1).sum();
    int redelivered = (int) deliveries.values().stream().filter(count -> count > 1).count();
    return new Result(
        violations, paid, deliveries.size(), redeliveries, redelivered, queue.outOfOrder());
  }

  /**
   * Each payment's own rules, {@code NOT_PAID} to {@code NOTIFIED}, added to {@code violations} in
   * ledger order.
   *
   * @return how many payments are PAID or refunded since
   */
  private static int payments(
      LedgerSnapshot ledger, Map<String, Pay> buyers, List<Violation> violations) {
    Map<String, List<LedgerSnapshot.Grant>> grants =
        ledger.grants().stream().collect(Collectors.groupingBy(LedgerSnapshot.Grant::purchaseId));
    Map<String, Set<String>> confirmed = confirmations(ledger);
    Map<String, List<LedgerSnapshot.Notification>> notified =
        ledger.notifications().stream()
            .collect(Collectors.groupingBy(LedgerSnapshot.Notification::paymentId));
    int paid = 0;
    for (LedgerSnapshot.Payment p : ledger.payments()) {
      boolean isPaid = PaymentStatus.valueOf(p.status()).wasPaid();
      paid += isPaid ? 1 : 0;
      Set<String> confirmedBy = confirmed.getOrDefault(p.paymentId(), Set.of());
      violations.addAll(
          payment(
              p,
              isPaid,
              buyers.getOrDefault(p.paymentId(), Pay.UNPAID),
              confirmedBy.size(),
              grants.getOrDefault(p.paymentId(), List.of())));
      violations.addAll(
          notified(p, isPaid, confirmedBy, notified.getOrDefault(p.paymentId(), List.of())));
    }
    return paid;
  }

  /** Each payment's {@code PaymentConfirmed} event ids, by payment id. */
  private static Map<String, Set<String>> confirmations(LedgerSnapshot ledger) {
    Map<String, Set<String>> confirmed = new HashMap<>();
    ledger.events().stream()
        .filter(e -> EventType.PAYMENT_CONFIRMED.wireName().equals(e.eventType()))
        .forEach(
            e -> confirmed.computeIfAbsent(e.paymentId(), p -> new HashSet<>()).add(e.eventId()));
    return confirmed;
  }

  /** {@code MISSING}: each payment id the API gave the buyers that has no row. */
  private static void missing(
      LedgerSnapshot ledger, Set<String> created, List<Violation> violations) {
    Set<String> known = new HashSet<>();
    ledger.payments().forEach(p -> known.add(p.paymentId()));
    created.stream()
        .filter(id -> !known.contains(id))
        .forEach(id -> violations.add(new Violation("MISSING", id, "created by the API, no row")));
  }

  /**
   * {@code confirmedBy}: the payment's {@code PaymentConfirmed} event ids; {@code notices}: its
   * notification rows.
   */
  private static List<Violation> notified(
      LedgerSnapshot.Payment p,
      boolean isPaid,
      Set<String> confirmedBy,
      List<LedgerSnapshot.Notification> notices) {
    boolean once =
        notices.size() == 1
            && notices.get(0).userId().equals(p.userId())
            && Notifications.COURSES_UNLOCKED.equals(notices.get(0).template())
            && confirmedBy.contains(notices.get(0).eventId());
    if (isPaid ? once : notices.isEmpty()) {
      return List.of();
    }
    return List.of(new Violation("NOTIFIED", p.paymentId(), p.status() + ", notified " + notices));
  }

  private static List<Violation> payment(
      LedgerSnapshot.Payment p,
      boolean isPaid,
      Pay pay,
      int confirmations,
      List<LedgerSnapshot.Grant> grants) {
    List<Violation> violations = new ArrayList<>();
    String id = p.paymentId();
    if (pay == Pay.PAID && !isPaid) {
      violations.add(new Violation("NOT_PAID", id, "the sandbox took the money; " + p.status()));
    }
    if (pay == Pay.UNPAID && isPaid) {
      violations.add(new Violation("PAID_UNPAID", id, "never paid at the sandbox, yet PAID"));
    }
    if (confirmations != (isPaid ? 1 : 0)) {
      violations.add(
          new Violation("CONFIRMED", id, confirmations + " PaymentConfirmed, " + p.status()));
    }
    Set<String> granted = new HashSet<>();
    grants.forEach(
        g -> granted.add(g.userId().equals(p.userId()) ? g.courseId() : "to " + g.userId()));
    if (grants.size() != granted.size() || !granted.equals(isPaid ? p.courses() : Set.of())) {
      violations.add(
          new Violation(
              "GRANTS", id, p.status() + ", courses " + p.courses() + ", granted " + granted));
    }
    return violations;
  }

  private static void messages(
      LedgerSnapshot ledger, Map<String, Integer> deliveries, List<Violation> violations) {
    Set<String> events = new HashSet<>();
    for (LedgerSnapshot.Event e : ledger.events()) {
      events.add(e.eventId());
      if (!"SENT".equals(e.status())) {
        violations.add(
            new Violation(
                "NOT_SENT",
                e.paymentId(),
                e.eventType() + " " + e.eventId() + " " + e.status() + " " + e.lastError()));
      } else if (!deliveries.containsKey(e.eventId())) {
        violations.add(
            new Violation("MESSAGE_LOST", e.paymentId(), e.eventType() + " " + e.eventId()));
      }
    }
    deliveries.keySet().stream()
        .filter(id -> !events.contains(id))
        .forEach(id -> violations.add(new Violation("UNKNOWN_MESSAGE", null, id)));
  }
}

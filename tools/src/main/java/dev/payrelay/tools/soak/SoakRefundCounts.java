package dev.payrelay.tools.soak;

import dev.payrelay.domain.RefundState;
import dev.payrelay.ledger.refund.RefundSnapshot;
import dev.payrelay.tools.soak.SoakRefundPlan.Behaviour;
import dev.payrelay.tools.soak.SoakRefundPlan.Shape;
import dev.payrelay.tools.soak.SoakRefunds.Answer;
import dev.payrelay.tools.soak.SoakRefunds.Ask;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What {@link SoakRefundAudit} saw, counted for the report.
 *
 * @param payments payments the soak asked to refund
 * @param shapes those payments by {@link Shape}, e.g. {@code full 3, partial 2, …}
 * @param behaviours those payments by the sandbox's {@link Behaviour}
 * @param requests refund requests sent (a retried one counts twice)
 * @param accepted answered 2xx
 * @param conflicts answered 409
 * @param unanswered without an answer within the retry budget
 * @param rows refund rows in the ledger
 * @param succeeded rows SUCCEEDED
 * @param failed rows FAILED
 * @param failedMeant rows FAILED whose payment the sandbox was told to fail
 * @param submittedOnce refund numbers the sandbox received exactly one submit of
 * @param channelRefunds refunds on the sandbox's statements
 * @param refundedEvents {@code PaymentRefunded} outbox rows
 * @param onQueue of those, reached the soak's queue
 * @param consumed of those, in the {@code entitlements} consumer's inbox
 * @param mustRevoke payments whose grants must be revoked (REFUNDED, or partially where partial
 *     refunds revoke)
 * @param revokedOnce of those, every grant revoked by one refund
 * @param races payments refunded twice in full at once
 * @param racesOneWon of those, answered one 2xx and one 409
 */
record SoakRefundCounts(
    int payments,
    String shapes,
    String behaviours,
    int requests,
    int accepted,
    int conflicts,
    int unanswered,
    int rows,
    int succeeded,
    int failed,
    int failedMeant,
    int submittedOnce,
    int channelRefunds,
    int refundedEvents,
    int onQueue,
    int consumed,
    int mustRevoke,
    int revokedOnce,
    int races,
    int racesOneWon) {

  /** The counts of {@code seen}; {@code revokedOnce} as {@link SoakRefundRevocations} found. */
  static SoakRefundCounts of(SoakRefundAudit.Seen seen, int revokedOnce) {
    Map<String, Ask> byPayment = new LinkedHashMap<>();
    seen.asks().forEach(a -> byPayment.putIfAbsent(a.paymentId(), a));
    Map<String, Ask> byKey = new LinkedHashMap<>();
    seen.asks().forEach(a -> byKey.put(a.key(), a));
    List<RefundSnapshot.Refund> rows = seen.ledger().refunds();
    List<Answer> answers = seen.answers();
    Set<String> failMeant =
        byKey.values().stream()
            .filter(a -> a.plan().behaviour() == Behaviour.FAIL)
            .map(Ask::key)
            .collect(Collectors.toSet());
    List<RefundSnapshot.RefundedEvent> events = seen.ledger().refundedEvents();
    Map<String, List<Integer>> races = SoakRefundAnswers.raceStatuses(seen.asks(), answers);
    return new SoakRefundCounts(
        byPayment.size(),
        tally(byPayment.values(), Shape.values(), a -> a.plan().shape(), Shape::label),
        tally(byPayment.values(), Behaviour.values(), a -> a.plan().behaviour(), Behaviour::label),
        answers.size(),
        (int) answers.stream().filter(a -> a.status() / 100 == 2).count(),
        (int) answers.stream().filter(a -> a.status() == 409).count(),
        (int) answers.stream().filter(a -> a.status() == 0).count(),
        rows.size(),
        state(rows, RefundState.SUCCEEDED),
        state(rows, RefundState.FAILED),
        (int)
            rows.stream()
                .filter(r -> RefundState.FAILED.name().equals(r.state()))
                .filter(r -> failMeant.contains(r.idempotencyKey()))
                .count(),
        (int)
            rows.stream()
                .filter(r -> Integer.valueOf(1).equals(seen.submits().get(r.refundNo())))
                .count(),
        seen.channelRefunds().size(),
        events.size(),
        (int) events.stream().filter(e -> seen.onQueue().contains(e.eventId())).count(),
        (int) events.stream().filter(e -> seen.ledger().consumed().contains(e.eventId())).count(),
        (int)
            seen.ledger().payments().values().stream()
                .filter(p -> SoakRefundAudit.revokes(p.status(), seen.partialRevokes()))
                .count(),
        revokedOnce,
        races.size(),
        (int) races.values().stream().filter(SoakRefundAnswers::oneWon).count());
  }

  private static int state(List<RefundSnapshot.Refund> rows, RefundState state) {
    return (int) rows.stream().filter(r -> state.name().equals(r.state())).count();
  }

  private static <T> String tally(
      Collection<Ask> asks, T[] values, Function<Ask, T> of, Function<T, String> label) {
    Map<T, Long> counts = asks.stream().collect(Collectors.groupingBy(of, Collectors.counting()));
    return Arrays.stream(values)
        .map(v -> label.apply(v) + " " + counts.getOrDefault(v, 0L))
        .collect(Collectors.joining(", "));
  }
}

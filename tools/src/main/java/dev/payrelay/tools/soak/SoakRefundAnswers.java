package dev.payrelay.tools.soak;

import dev.payrelay.ledger.refund.RefundSnapshot;
import dev.payrelay.tools.soak.SoakAudit.Violation;
import dev.payrelay.tools.soak.SoakRefundPlan.Shape;
import dev.payrelay.tools.soak.SoakRefunds.Answer;
import dev.payrelay.tools.soak.SoakRefunds.Ask;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * {@code REFUND_ANSWER} of {@link SoakRefundAudit}: the API's answers to the soak's refund requests
 * against the ledger's refund rows, matched by Idempotency-Key (unique per tenant, V13).
 */
final class SoakRefundAnswers {

  private static final int CONFLICT = 409;

  private SoakRefundAnswers() {}

  /** Adds a {@code REFUND_ANSWER} violation to {@code violations} for each broken answer. */
  static void check(
      List<RefundSnapshot.Refund> rows,
      List<Ask> asks,
      List<Answer> answers,
      List<Violation> violations) {
    Map<String, RefundSnapshot.Refund> rowByKey = new HashMap<>();
    rows.forEach(r -> rowByKey.put(r.idempotencyKey(), r));
    Map<String, List<Answer>> byKey = answers.stream().collect(Collectors.groupingBy(Answer::key));
    Set<String> asked = asks.stream().map(Ask::key).collect(Collectors.toSet());
    rows.stream()
        .filter(r -> !asked.contains(r.idempotencyKey()))
        .forEach(
            r ->
                violations.add(
                    violation(r.paymentId(), "refund %s under key %s nobody asked for", r)));
    Map<String, List<Ask>> races = new LinkedHashMap<>();
    for (Ask ask : asks) {
      List<Answer> got = byKey.getOrDefault(ask.key(), List.of());
      RefundSnapshot.Refund row = rowByKey.get(ask.key());
      for (Answer a : got) {
        if (a.status() / 100 == 2 && (row == null || !row.refundId().equals(a.refundId()))) {
          violations.add(
              violation(
                  ask.paymentId(),
                  "key %s answered %d with refund %s; the ledger holds %s"
                      .formatted(ask.key(), a.status(), a.refundId(), row)));
        }
      }
      if (ask.plan().shape() == Shape.RACE) {
        races.computeIfAbsent(ask.paymentId(), p -> new ArrayList<>()).add(ask);
      } else if (got.stream().anyMatch(a -> a.status() / 100 == 4)) {
        violations.add(
            violation(
                ask.paymentId(),
                "key %s (%s, %d minor units) refused: %s"
                    .formatted(ask.key(), ask.plan().shape().label(), ask.amountMinor(), got)));
      }
    }
    Map<String, List<Integer>> statuses = raceStatuses(asks, answers);
    races.forEach(
        (payment, pair) -> race(payment, pair, statuses.get(payment), rowByKey, violations));
  }

  /** Two full refunds at once: at most one row; when both answered, one 2xx and one 409. */
  private static void race(
      String payment,
      List<Ask> pair,
      List<Integer> statuses,
      Map<String, RefundSnapshot.Refund> rowByKey,
      List<Violation> violations) {
    long rows = pair.stream().filter(a -> rowByKey.containsKey(a.key())).count();
    boolean bothAnswered = statuses.size() == 2 && !statuses.contains(0);
    if (rows > 1 || (bothAnswered && !oneWon(statuses))) {
      violations.add(
          violation(
              payment,
              "two full refunds at once: %d accepted in the ledger, answered %s"
                  .formatted(rows, statuses)));
    }
  }

  /** The statuses (sorted; 0 for no answer) of each {@link Shape#RACE}'s answers, by payment. */
  static Map<String, List<Integer>> raceStatuses(List<Ask> asks, List<Answer> answers) {
    Map<String, String> raceKeys = new HashMap<>();
    Map<String, List<Integer>> statuses = new LinkedHashMap<>();
    for (Ask a : asks) {
      if (a.plan().shape() == Shape.RACE) {
        raceKeys.put(a.key(), a.paymentId());
        statuses.computeIfAbsent(a.paymentId(), p -> new ArrayList<>());
      }
    }
    answers.stream()
        .filter(a -> raceKeys.containsKey(a.key()))
        .forEach(a -> statuses.get(raceKeys.get(a.key())).add(a.status()));
    statuses.values().forEach(Collections::sort);
    return statuses;
  }

  /** Whether the pair of answers {@code statuses} (sorted) is one 2xx and one 409. */
  static boolean oneWon(List<Integer> statuses) {
    return statuses.size() == 2 && statuses.get(0) / 100 == 2 && statuses.get(1) == CONFLICT;
  }

  private static Violation violation(String payment, String format, RefundSnapshot.Refund r) {
    return violation(payment, format.formatted(r.refundId(), r.idempotencyKey()));
  }

  private static Violation violation(String payment, String detail) {
    return new Violation("REFUND_ANSWER", payment, detail);
  }
}

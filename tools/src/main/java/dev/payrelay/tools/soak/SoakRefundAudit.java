package dev.payrelay.tools.soak;

import dev.payrelay.app.config.ConsumersSettings;
import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.domain.RefundState;
import dev.payrelay.domain.channel.ChannelException;
import dev.payrelay.domain.channel.StatementLine;
import dev.payrelay.ledger.refund.RefundSnapshot;
import dev.payrelay.tools.soak.SoakAudit.Violation;
import dev.payrelay.tools.soak.SoakRefundPlan.Behaviour;
import dev.payrelay.tools.soak.SoakRefunds.Ask;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.jooq.DSLContext;

/**
 * The soak's refund invariants (issue 28 item 7), over what it asked ({@link SoakRefunds}), the
 * ledger ({@link RefundSnapshot}), the soak's queue and the sandbox, each a violation kind:
 *
 * <ul>
 *   <li>{@code REFUND_ANSWER}: an answer that breaks the API's word: a 2xx whose refund is not the
 *       ledger's for its Idempotency-Key, the same request answered with two refunds or refused,
 *       two full refunds of one payment both accepted (or not one 2xx and one 409), a refund of a
 *       fulfilled payment within its capture refused, a refund row nobody asked for;
 *   <li>{@code REFUND_END}: a requested refund not SUCCEEDED, or not FAILED when (and only when)
 *       the sandbox was told to fail it;
 *   <li>{@code REFUND_SUBMIT}: a refund number the sandbox received other than exactly one submit
 *       of;
 *   <li>{@code REFUND_NUMBER}: a refund the sandbox's statement lists under a number that is none
 *       of ours, or two under one number, or a SUCCEEDED refund the statement does not list as its
 *       channel refund with its amount;
 *   <li>{@code REFUND_CAPTURE}: a payment whose refunds not FAILED (in the ledger, or the channel's
 *       on its statement) add up to more than its captured amount;
 *   <li>{@code REFUND_EVENT}: a SUCCEEDED refund without exactly one {@code PaymentRefunded} outbox
 *       row, that row's message not on the soak's queue or not in the {@code entitlements}
 *       consumer's inbox; or a refund not SUCCEEDED with such a row;
 *   <li>{@code REVOCATION}: a REFUNDED purchase (or a PARTIALLY_REFUNDED one where partial refunds
 *       revoke) whose grants are not all revoked by one SUCCEEDED refund of it, or any other
 *       purchase with a revoked grant.
 * </ul>
 */
final class SoakRefundAudit {

  /** The violation kinds, in report order. */
  static final List<String> KINDS =
      List.of(
          "REFUND_ANSWER",
          "REFUND_END",
          "REFUND_SUBMIT",
          "REFUND_NUMBER",
          "REFUND_CAPTURE",
          "REFUND_EVENT",
          "REVOCATION");

  /**
   * What the audit reads.
   *
   * @param asks every request the soak sent, {@code answers} every answer it got
   * @param onQueue the message ids the soak's queue received
   * @param submits submits the sandbox received per refund number of the ledger's; a number it did
   *     not answer for is absent
   * @param channelRefunds the REFUND lines of the sandbox's statements
   * @param channelFailure why the statements could not be read, or null
   * @param partialRevokes whether a partial refund revokes the purchase's grants ({@code
   *     PAYRELAY_REFUND_PARTIAL_GRANTS=revoke-all})
   */
  record Seen(
      RefundSnapshot ledger,
      List<Ask> asks,
      List<SoakRefunds.Answer> answers,
      Set<String> onQueue,
      Map<String, Integer> submits,
      List<StatementLine> channelRefunds,
      String channelFailure,
      boolean partialRevokes) {}

  /**
   * The outcome.
   *
   * @param counts what was seen, for the report
   */
  record Result(List<Violation> violations, SoakRefundCounts counts) {

    /** The violations of {@code kind}. */
    long count(String kind) {
      return violations.stream().filter(v -> v.kind().equals(kind)).count();
    }
  }

  private SoakRefundAudit() {}

  /**
   * Reads what the audit needs — the ledger over {@code dsl}, the sandbox's submit count for each
   * of the ledger's refund numbers and its statements since {@code since} — and audits it.
   *
   * @param onQueue the message ids the soak's queue received
   * @param partialRevokes see {@link Seen#partialRevokes()}
   */
  static Result read(
      DSLContext dsl,
      SoakRefunds refunds,
      SoakSandbox sandbox,
      Set<String> onQueue,
      Instant since,
      boolean partialRevokes) {
    RefundSnapshot ledger = RefundSnapshot.read(dsl, ConsumersSettings.ENTITLEMENTS);
    Map<String, Integer> submits = new HashMap<>();
    for (RefundSnapshot.Refund r : ledger.refunds()) {
      sandbox.submits(r.refundNo()).ifPresent(n -> submits.put(r.refundNo(), n));
    }
    List<StatementLine> channel = List.of();
    String failure = null;
    try {
      channel = sandbox.refunds(since);
    } catch (ChannelException | RuntimeException e) {
      failure = String.valueOf(e);
    }
    return of(
        new Seen(
            ledger,
            refunds.asks(),
            refunds.answers(),
            onQueue,
            submits,
            channel,
            failure,
            partialRevokes));
  }

  /** Audits what was seen. */
  static Result of(Seen seen) {
    List<Violation> violations = new ArrayList<>();
    SoakRefundAnswers.check(seen.ledger().refunds(), seen.asks(), seen.answers(), violations);
    Map<String, Ask> byKey = new HashMap<>();
    seen.asks().forEach(a -> byKey.put(a.key(), a));
    for (RefundSnapshot.Refund r : seen.ledger().refunds()) {
      Ask ask = byKey.get(r.idempotencyKey());
      end(r, ask, violations);
      Integer submits = seen.submits().get(r.refundNo());
      if (submits == null || submits != 1) {
        violations.add(
            new Violation(
                "REFUND_SUBMIT",
                r.paymentId(),
                "refund %s (number %s, %s): %s submit(s) at the sandbox"
                    .formatted(r.refundId(), r.refundNo(), r.state(), submits)));
      }
    }
    numbers(seen, violations);
    capture(seen, violations);
    events(seen, violations);
    int revokedOnce = SoakRefundRevocations.check(seen.ledger(), seen.partialRevokes(), violations);
    return new Result(violations, SoakRefundCounts.of(seen, revokedOnce));
  }

  /** {@code REFUND_END}: SUCCEEDED, or FAILED exactly where the sandbox was told to fail it. */
  private static void end(RefundSnapshot.Refund r, Ask ask, List<Violation> violations) {
    boolean failMeant = ask != null && ask.plan().behaviour() == Behaviour.FAIL;
    RefundState expected = failMeant ? RefundState.FAILED : RefundState.SUCCEEDED;
    if (!expected.name().equals(r.state())) {
      violations.add(
          new Violation(
              "REFUND_END",
              r.paymentId(),
              "refund %s is %s; the sandbox %s, so it must end %s"
                  .formatted(
                      r.refundId(),
                      r.state(),
                      failMeant ? "failed it" : "did not fail it",
                      expected)));
    }
  }

  /** {@code REFUND_NUMBER}: the channel's refunds against the ledger's numbers. */
  private static void numbers(Seen seen, List<Violation> violations) {
    if (seen.channelFailure() != null) {
      violations.add(
          new Violation("REFUND_NUMBER", null, "statement unreadable: " + seen.channelFailure()));
      return;
    }
    Map<String, RefundSnapshot.Refund> ours = new HashMap<>();
    seen.ledger().refunds().forEach(r -> ours.put(r.refundNo(), r));
    Map<String, List<StatementLine>> byNumber = new HashMap<>();
    for (StatementLine line : seen.channelRefunds()) {
      if (line.refundNo() == null || !ours.containsKey(line.refundNo())) {
        violations.add(
            new Violation(
                "REFUND_NUMBER",
                line.paymentId(),
                "the channel refunded %s (%s) under number %s, none of ours"
                    .formatted(line.amount(), line.channelTxnId(), line.refundNo())));
      } else {
        byNumber.computeIfAbsent(line.refundNo(), n -> new ArrayList<>()).add(line);
      }
    }
    for (RefundSnapshot.Refund r : seen.ledger().refunds()) {
      List<StatementLine> lines = byNumber.getOrDefault(r.refundNo(), List.of());
      boolean succeeded = RefundState.SUCCEEDED.name().equals(r.state());
      boolean listed =
          lines.size() == 1
              && lines.get(0).channelTxnId().equals(r.channelRefundId())
              && lines.get(0).amount().minorUnits() == r.amountMinor();
      if (succeeded ? !listed : !lines.isEmpty()) {
        violations.add(
            new Violation(
                "REFUND_NUMBER",
                r.paymentId(),
                "refund %s (number %s, %s, channel id %s, %d minor units): the channel lists %s"
                    .formatted(
                        r.refundId(),
                        r.refundNo(),
                        r.state(),
                        r.channelRefundId(),
                        r.amountMinor(),
                        lines.stream().map(l -> l.channelTxnId() + " " + l.amount()).toList())));
      }
    }
  }

  /** {@code REFUND_CAPTURE}: per payment, refunds not FAILED within the capture. */
  private static void capture(Seen seen, List<Violation> violations) {
    Map<String, Long> ledger =
        seen.ledger().refunds().stream()
            .filter(r -> !RefundState.FAILED.name().equals(r.state()))
            .collect(
                Collectors.groupingBy(
                    RefundSnapshot.Refund::paymentId,
                    Collectors.summingLong(RefundSnapshot.Refund::amountMinor)));
    Map<String, Long> channel =
        seen.channelRefunds().stream()
            .filter(l -> l.paymentId() != null)
            .collect(
                Collectors.groupingBy(
                    StatementLine::paymentId,
                    Collectors.summingLong(l -> l.amount().minorUnits())));
    for (RefundSnapshot.Payment p : seen.ledger().payments().values()) {
      long captured = p.capturedMinor() == null ? 0 : p.capturedMinor();
      long ours = ledger.getOrDefault(p.paymentId(), 0L);
      long theirs = channel.getOrDefault(p.paymentId(), 0L);
      if (ours > captured || theirs > captured) {
        violations.add(
            new Violation(
                "REFUND_CAPTURE",
                p.paymentId(),
                "captured %d minor units; refunds not FAILED add up to %d, the channel's to %d"
                    .formatted(captured, ours, theirs)));
      }
    }
  }

  /** {@code REFUND_EVENT}: one PaymentRefunded per SUCCEEDED refund, delivered and consumed. */
  private static void events(Seen seen, List<Violation> violations) {
    Map<String, List<RefundSnapshot.RefundedEvent>> byRefund =
        seen.ledger().refundedEvents().stream()
            .collect(Collectors.groupingBy(RefundSnapshot.RefundedEvent::refundId));
    for (RefundSnapshot.Refund r : seen.ledger().refunds()) {
      List<RefundSnapshot.RefundedEvent> events = byRefund.getOrDefault(r.refundId(), List.of());
      boolean succeeded = RefundState.SUCCEEDED.name().equals(r.state());
      String problem = null;
      if (events.size() != (succeeded ? 1 : 0)) {
        problem = events.size() + " PaymentRefunded outbox row(s)";
      } else if (succeeded && !seen.onQueue().contains(events.get(0).eventId())) {
        problem = "its PaymentRefunded " + events.get(0).eventId() + " never reached the queue";
      } else if (succeeded && !seen.ledger().consumed().contains(events.get(0).eventId())) {
        problem =
            "its PaymentRefunded " + events.get(0).eventId() + " is not in the entitlements inbox";
      }
      if (problem != null) {
        violations.add(
            new Violation(
                "REFUND_EVENT",
                r.paymentId(),
                "refund %s %s: %s".formatted(r.refundId(), r.state(), problem)));
      }
    }
  }

  /** Whether the payment's status means its purchase's grants must be revoked. */
  static boolean revokes(String status, boolean partialRevokes) {
    return PaymentStatus.REFUNDED.name().equals(status)
        || (partialRevokes && PaymentStatus.PARTIALLY_REFUNDED.name().equals(status));
  }
}

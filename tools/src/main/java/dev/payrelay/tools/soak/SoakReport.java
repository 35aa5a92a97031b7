package dev.payrelay.tools.soak;

import dev.payrelay.ledger.checks.FindingKind;
import dev.payrelay.tools.soak.SoakAudit.Violation;
import dev.payrelay.tools.soak.SoakFaults.Fault;
import dev.payrelay.tools.soak.SoakFaults.Kind;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What a soak run prints at its end, one labelled line per fact (the labels are stable: tests and
 * scripts read them).
 *
 * @param id the run's id
 * @param plan what was asked for
 * @param buyers the buyers' counts
 * @param audit the soak's own counts after the drain
 * @param refundTally what the refunders did
 * @param refunds the soak's refund counts after the drain
 * @param faults the faults, in order
 * @param unexpectedExits children that died without being killed, by role
 * @param drain how the drain went
 * @param check what {@code payrelay check} said
 * @param violations everything that broke a rule: the audit's, the checker's, a failed restart
 * @param settings what the soak set that changes payrelay's behaviour
 * @param logs the children's log files
 * @param leftBehind what the run left in place (its database, exchange, queue and Temporal
 *     namespace), or "nothing"
 */
record SoakReport(
    String id,
    SoakPlan plan,
    SoakBuyers.Tally buyers,
    SoakAudit.Result audit,
    SoakRefunds.Tally refundTally,
    SoakRefundAudit.Result refunds,
    List<Fault> faults,
    Map<String, Integer> unexpectedExits,
    Drain drain,
    SoakCheck.Outcome check,
    List<Violation> violations,
    String settings,
    List<Path> logs,
    String leftBehind) {

  private static final int VIOLATIONS_LISTED = 50;

  /** The {@code payrelay check} finding kinds about refunds (ledger/checks RefundChecks). */
  private static final Set<String> REFUND_FINDINGS =
      Stream.of(
              FindingKind.REFUNDED_MORE_THAN_CAPTURED,
              FindingKind.REFUND_WITHOUT_EVENT,
              FindingKind.REFUNDED_WITH_LIVE_GRANTS,
              FindingKind.REFUND_UNKNOWN_TOO_LONG)
          .map(k -> "check:" + k.name())
          .collect(Collectors.toSet());

  /**
   * The drain.
   *
   * @param took from the end of the faults until every count held, or null if they did not within
   *     the drain limit
   * @param openAtStart what the soak's counts still found open when the faults ended (the backlog)
   */
  record Drain(Duration took, int openAtStart) {}

  /** Whether nothing was lost and nothing happened twice. */
  boolean passed() {
    return violations.isEmpty();
  }

  /** Prints the report, one labelled line per fact. */
  void print(PrintWriter out) {
    out.printf("%nsoak report %s (seed %d, %s)%n", id, plan.seed(), plan.describe());
    printPayments(out);
    printFaults(out);
    printMessages(out);
    printDrain(out);
    out.println("check      " + check.summary());
    new SoakRefundReport(refundTally, refunds, refundFindings()).print(out);
    printViolations(out);
    out.println("settings   " + settings);
    logs.forEach(log -> out.println("log        " + log.toAbsolutePath()));
    out.println("left       " + leftBehind);
    out.println(
        passed()
            ? "PASS: nothing lost, nothing twice"
            : "FAIL: " + violations.size() + " violation(s)");
    out.flush();
  }

  private void printPayments(PrintWriter out) {
    out.printf(
        "payments   created %d of %d orders: paid at the sandbox %d, left unpaid %d, PAID in the"
            + " database %d (refunded since included); create gave up %d, pay gave up %d%s%n",
        buyers.created(),
        buyers.orders(),
        buyers.paid(),
        buyers.unpaid(),
        audit.paid(),
        buyers.createGaveUp(),
        buyers.payGaveUp(),
        buyers.lastFailure().isEmpty() ? "" : " (last failed call: " + buyers.lastFailure() + ")");
  }

  /** The kills, cuts and hangs counted by kind, then each fault in order. */
  private void printFaults(PrintWriter out) {
    out.printf(
        "kills      api %d, worker %d, temporal %d; exited by themselves: %s%n",
        count(Kind.KILL_API), count(Kind.KILL_WORKER), count(Kind.KILL_TEMPORAL), exits());
    out.printf("cuts       db %s, broker %s%n", lengths(Kind.CUT_DB), lengths(Kind.CUT_BROKER));
    out.printf(
        "hangs      temporal %s, broker %s%n",
        lengths(Kind.HANG_TEMPORAL), lengths(Kind.HANG_BROKER));
    faults.forEach(
        f ->
            out.printf(
                "fault      +%.1fs %s for %.1f s (%s)%n",
                SoakFaults.seconds(f.at()),
                f.kind().label(),
                SoakFaults.seconds(f.length()),
                f.detail()));
  }

  private void printMessages(PrintWriter out) {
    out.printf(
        "messages   %d event ids on the queue, redeliveries %d (%d event ids delivered more than"
            + " once; allowed: at-least-once), out of order %d (after a later event of their"
            + " payment; allowed: consumers order by payment_seq)%n",
        audit.messages(), audit.redeliveries(), audit.redelivered(), audit.outOfOrder());
  }

  private void printDrain(PrintWriter out) {
    out.println(
        (drain.took() == null
                ? "drain      NOT COMPLETE within %d s".formatted(plan.drainLimit().toSeconds())
                : "drain      %.1f s after the last fault (limit %d s)"
                    .formatted(SoakFaults.seconds(drain.took()), plan.drainLimit().toSeconds()))
            + "; %d item(s) open when the faults ended".formatted(drain.openAtStart()));
  }

  /** The count, then the first {@value #VIOLATIONS_LISTED} violations. */
  private void printViolations(PrintWriter out) {
    out.println("violations " + violations.size());
    violations.stream()
        .limit(VIOLATIONS_LISTED)
        .forEach(v -> out.printf("  %-16s %s %s%n", v.kind(), v.paymentId(), v.detail()));
    if (violations.size() > VIOLATIONS_LISTED) {
      out.printf("  … and %d more%n", violations.size() - VIOLATIONS_LISTED);
    }
  }

  /** How many of the checker's findings are about refunds. */
  private int refundFindings() {
    return (int) check.findings().stream().filter(f -> REFUND_FINDINGS.contains(f.kind())).count();
  }

  private String exits() {
    String exits =
        unexpectedExits.entrySet().stream()
            .filter(e -> e.getValue() > 0)
            .map(e -> e.getKey() + " " + e.getValue())
            .collect(Collectors.joining(", "));
    return exits.isEmpty() ? "none" : exits;
  }

  private long count(Kind kind) {
    return faults.stream().filter(f -> f.kind() == kind).count();
  }

  /** How many faults of {@code kind}, with their lengths. */
  private String lengths(Kind kind) {
    List<Fault> of = faults.stream().filter(f -> f.kind() == kind).toList();
    return of.size()
        + (of.isEmpty()
            ? ""
            : of.stream()
                .map(f -> "%.1f s".formatted(SoakFaults.seconds(f.length())))
                .collect(Collectors.joining(", ", " (", ")")));
  }
}

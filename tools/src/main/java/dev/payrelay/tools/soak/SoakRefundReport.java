package dev.payrelay.tools.soak;

import java.io.PrintWriter;

/**
 * The soak report's {@code refunds} lines (part of {@link SoakReport}; the label and the wording of
 * each line are stable, tests read them): what was asked, then each refund invariant of {@link
 * SoakRefundAudit} with its counts and its violations, then {@code payrelay check}'s refund
 * findings and the total.
 *
 * @param tally what the refunders did
 * @param audit the refund audit after the drain
 * @param checkFindings {@code payrelay check}'s findings about refunds
 */
record SoakRefundReport(SoakRefunds.Tally tally, SoakRefundAudit.Result audit, int checkFindings) {

  private static final String LABEL = "refunds    ";

  /** Every refund violation: the audit's and the checker's refund findings. */
  int violations() {
    return audit.violations().size() + checkFindings;
  }

  /** Prints the lines. */
  void print(PrintWriter out) {
    SoakRefundCounts c = audit.counts();
    line(
        out,
        "asked for %d of %d payments chosen (%s; sandbox %s); not fulfilled within %d s %d, mode"
            + " not taken %d",
        c.payments(),
        tally.chosen(),
        c.shapes(),
        c.behaviours(),
        SoakRefunds.FULFILMENT_WAIT.toSeconds(),
        tally.notFulfilled(),
        tally.modeGaveUp());
    line(
        out,
        "answers: %d requests, accepted %d, 409 %d, unanswered %d; two full refunds at once %d,"
            + " one accepted and one 409 %d — %s",
        c.requests(),
        c.accepted(),
        c.conflicts(),
        c.unanswered(),
        c.races(),
        c.racesOneWon(),
        kinds("REFUND_ANSWER"));
    line(
        out,
        "end: %d refunds, SUCCEEDED %d, FAILED %d (the sandbox failed %d of them) — %s",
        c.rows(),
        c.succeeded(),
        c.failed(),
        c.failedMeant(),
        kinds("REFUND_END"));
    line(
        out,
        "channel: %d of %d refund numbers submitted exactly once, %d refunds on its statement"
            + " — %s",
        c.submittedOnce(),
        c.rows(),
        c.channelRefunds(),
        kinds("REFUND_SUBMIT", "REFUND_NUMBER"));
    line(
        out,
        "capture: refunds not FAILED within the captured amount — %s",
        kinds("REFUND_CAPTURE"));
    line(
        out,
        "events: %d PaymentRefunded for %d SUCCEEDED, on the queue %d, consumed by"
            + " entitlements %d — %s",
        c.refundedEvents(),
        c.succeeded(),
        c.onQueue(),
        c.consumed(),
        kinds("REFUND_EVENT"));
    line(
        out,
        "revocations: %d purchases to revoke, revoked once by one refund %d — %s",
        c.mustRevoke(),
        c.revokedOnce(),
        kinds("REVOCATION"));
    line(
        out,
        "check: %d refund finding(s) of payrelay check; refund violations %d",
        checkFindings,
        violations());
  }

  private String kinds(String... kinds) {
    StringBuilder text = new StringBuilder();
    for (String kind : kinds) {
      text.append(text.isEmpty() ? "" : ", ").append(kind).append(' ').append(audit.count(kind));
    }
    return text.toString();
  }

  private static void line(PrintWriter out, String format, Object... args) {
    out.println(LABEL + format.formatted(args));
  }
}

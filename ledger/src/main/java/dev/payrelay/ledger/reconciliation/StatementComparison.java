package dev.payrelay.ledger.reconciliation;

import dev.payrelay.domain.channel.CallbackDecision;
import dev.payrelay.domain.channel.CallbackOutcome;
import dev.payrelay.domain.channel.StatementLine;
import dev.payrelay.domain.channel.VerifiedCallback;
import dev.payrelay.ledger.payment.PaymentRow;
import java.util.ArrayList;
import java.util.List;

/**
 * Judges one statement line against our payment: a small total function with no I/O. A PAYMENT line
 * is judged exactly as a callback with the same content would be ({@link CallbackDecision}), so
 * reconciliation and the webhook never disagree about what a gap is.
 */
final class StatementComparison {

  /** A gap before it is recorded. */
  record Finding(ReconciliationKind kind, String details) {}

  private StatementComparison() {}

  /**
   * The gaps one PAYMENT line shows (REFUND lines are {@link RefundComparison}'s).
   *
   * @param channel the channel whose statement it is
   * @param line the statement line
   * @param ours the payment the line names (by payment id, else by transaction), or null
   * @param entitled whether every course {@code ours} bought has its entitlement row
   * @return zero, one or two findings (a line's own gap, and missing entitlements of a PAID one)
   */
  static List<Finding> compare(
      String channel, StatementLine line, PaymentRow ours, boolean entitled) {
    if (ours == null || !ours.channel().equals(channel)) {
      return List.of(
          new Finding(ReconciliationKind.UNKNOWN_TRANSACTION, theirs(line) + "; " + of(ours)));
    }
    List<Finding> findings = new ArrayList<>();
    ReconciliationKind kind = kindOf(line, ours);
    if (kind != null) {
      findings.add(new Finding(kind, theirs(line) + "; " + of(ours)));
    }
    // A fully refunded purchase owes no grant (issue 28 item 4 revokes them).
    if (ours.status().owesEntitlements() && !entitled) {
      findings.add(
          new Finding(
              ReconciliationKind.ENTITLEMENT_MISSING,
              "ours PAID but not every course of " + ours.courseIds() + " is granted"));
    }
    return findings;
  }

  /**
   * The gap of a line in merchant account {@code account}'s statement that names a payment of
   * another account: UNKNOWN_TRANSACTION, for review; the payment itself is not compared.
   */
  static Finding ofAnotherAccount(StatementLine line, String account) {
    return new Finding(
        ReconciliationKind.UNKNOWN_TRANSACTION,
        theirs(line)
            + "; names a payment of another merchant account than "
            + account
            + ", whose statement it is: not compared");
  }

  /** The line's own gap, or null when it agrees with ours. */
  private static ReconciliationKind kindOf(StatementLine line, PaymentRow ours) {
    // The caller only compares lines of the payment's own account (or of the channel's statement
    // of every account), so the merchant is the payment's own.
    VerifiedCallback asCallback =
        new VerifiedCallback(
            "statement:" + line.channelTxnId(),
            ours.merchantId(),
            ours.paymentId(),
            line.channelTxnId(),
            line.amount(),
            line.status());
    CallbackOutcome outcome = CallbackDecision.decide(ours.snapshot(), asCallback);
    return switch (outcome) {
      case CONFIRMED -> ReconciliationKind.PAID_NOT_CONFIRMED;
      case AMOUNT_MISMATCH -> ReconciliationKind.AMOUNT_MISMATCH;
      case CURRENCY_MISMATCH -> ReconciliationKind.CURRENCY_MISMATCH;
      case DOUBLE_PAYMENT -> ReconciliationKind.DOUBLE_PAYMENT;
      case PAID_AFTER_CLOSE -> ReconciliationKind.PAID_AFTER_CLOSE;
      case STALE_STATUS ->
          ours.status().wasPaid() && line.channelTxnId().equals(ours.channelTxnId())
              ? ReconciliationKind.STATUS_MISMATCH
              : null;
      default -> null;
    };
  }

  /** The line as text for {@code details}. */
  static String theirs(StatementLine line) {
    return "statement: "
        + line.kind()
        + " "
        + line.status()
        + " "
        + line.amount()
        + " txn "
        + line.channelTxnId()
        + " payment "
        + line.paymentId()
        + " at "
        + line.occurredAt();
  }

  /** Our payment as text for {@code details}. */
  static String of(PaymentRow ours) {
    if (ours == null) {
      return "ours: no such payment";
    }
    return "ours: "
        + ours.paymentId()
        + " on "
        + ours.channel()
        + " "
        + ours.status()
        + " "
        + ours.amount()
        + " txn "
        + ours.channelTxnId();
  }
}

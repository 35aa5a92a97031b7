package dev.payrelay.ledger.payment;

import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.PaymentTransition;
import dev.payrelay.domain.channel.CallbackOutcome;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.db.generated.tables.records.PaymentExceptionRecord;
import dev.payrelay.ledger.operator.ResolutionRefused;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * An operator's {@code ACCEPT_AS_PAID}, inside the resolution's transaction: the channel's
 * transaction and amount from an open exception become the payment's, by the transition the
 * payment's status allows ({@link PaymentTransition#ACCEPT_AS_PAID} from PENDING, {@link
 * PaymentTransition#REOPEN_AS_PAID} from CLOSED or EXPIRED), with {@code PaymentConfirmed} (source
 * OPERATOR). The channel's amount and currency become the payment's captured ones ({@code
 * captured_amount_minor}, {@code captured_currency}, V21), which its refunds are held against; its
 * {@code amount_minor} stays what the buyer was asked to pay.
 */
public final class PaidAcceptance {

  /**
   * Exceptions of a PENDING payment whose callback said PAID to our merchant account and can be
   * accepted as this payment's money. Not MERCHANT_MISMATCH (paid to another account, or not even
   * PAID), TXN_CONFLICT (that money already paid another payment) or DOUBLE_PAYMENT (a refund
   * case).
   */
  private static final Set<String> ACCEPTABLE_WHILE_PENDING =
      Set.of(CallbackOutcome.AMOUNT_MISMATCH.name(), CallbackOutcome.CURRENCY_MISMATCH.name());

  /** The exception that may reopen a CLOSED or EXPIRED payment: the buyer paid after we closed. */
  private static final Set<String> ACCEPTABLE_AFTER_CLOSE =
      Set.of(CallbackOutcome.PAID_AFTER_CLOSE.name());

  /**
   * What the acceptance did.
   *
   * @param eventId the {@code PaymentConfirmed} event written
   * @param done the audit's description
   */
  public record Accepted(String eventId, String done) {}

  private final PaymentTransitions transitions;

  public PaidAcceptance(PaymentTransitions transitions) {
    this.transitions = transitions;
  }

  /**
   * Marks {@code payment} (locked by the caller) PAID with the latest acceptable open exception.
   *
   * @throws ResolutionRefused when the payment is PAID, no open exception can be accepted for its
   *     status, or the row moved under us
   */
  public Accepted accept(DSLContext tx, PaymentRow payment, List<PaymentExceptionRecord> open) {
    PaymentTransition move = transitionFrom(payment);
    PaymentExceptionRecord e = acceptable(move, open);
    boolean moved =
        PaymentTransitions.move(
            tx,
            payment.paymentId(),
            move,
            DSL.noCondition(),
            Map.of(
                PAYMENT_ORDER.CHANNEL_TXN_ID, e.getChannelTxnId(),
                PAYMENT_ORDER.PAID_AT, SqlTime.now(),
                PAYMENT_ORDER.CAPTURED_AMOUNT_MINOR, e.getChannelAmountMinor(),
                PAYMENT_ORDER.CAPTURED_CURRENCY, e.getChannelCurrency()));
    if (!moved) {
      throw new ResolutionRefused("payment changed while resolving");
    }
    Money theirs = Money.ofMinor(e.getChannelAmountMinor(), e.getChannelCurrency());
    String eventId =
        transitions.announceConfirmed(tx, payment, e.getChannelTxnId(), theirs, "OPERATOR");
    return new Accepted(
        eventId,
        "PAID with channel transaction "
            + e.getChannelTxnId()
            + " for "
            + theirs.minorUnits()
            + " "
            + theirs.currencyCode()
            + " minor units (ours "
            + payment.amount().minorUnits()
            + " "
            + payment.amount().currencyCode()
            + ")");
  }

  private static PaymentTransition transitionFrom(PaymentRow payment) {
    if (PaymentTransition.ACCEPT_AS_PAID.startsFrom(payment.status())) {
      return PaymentTransition.ACCEPT_AS_PAID;
    }
    if (PaymentTransition.REOPEN_AS_PAID.startsFrom(payment.status())) {
      return PaymentTransition.REOPEN_AS_PAID;
    }
    throw new ResolutionRefused(
        "payment is already " + payment.status() + "; use MARK_FOR_REFUND for a second charge");
  }

  private static PaymentExceptionRecord acceptable(
      PaymentTransition move, List<PaymentExceptionRecord> open) {
    boolean reopen = move == PaymentTransition.REOPEN_AS_PAID;
    Set<String> kinds = reopen ? ACCEPTABLE_AFTER_CLOSE : ACCEPTABLE_WHILE_PENDING;
    List<PaymentExceptionRecord> candidates =
        open.stream()
            .filter(e -> kinds.contains(e.getKind()))
            .filter(e -> e.getChannelTxnId() != null && e.getChannelAmountMinor() != null)
            .toList();
    List<String> transactions =
        candidates.stream()
            .map(
                e ->
                    e.getChannelTxnId()
                        + " "
                        + e.getChannelAmountMinor()
                        + " "
                        + e.getChannelCurrency())
            .distinct()
            .toList();
    if (transactions.size() > 1) {
      // Accepting one would resolve the others as accepted too: money kept without a decision.
      throw new ResolutionRefused(
          "the channel reported money for this payment under "
              + transactions.size()
              + " transactions "
              + transactions
              + " (minor units); ACCEPT_AS_PAID would take one and leave the others undecided:"
              + " MARK_FOR_REFUND to give them back first");
    }
    return candidates.stream()
        .reduce((first, second) -> second)
        .orElseThrow(
            () ->
                new ResolutionRefused(
                    "no open exception the channel reported as money paid to us "
                        + kinds.stream().sorted().toList()
                        + " to accept"
                        + (reopen ? "; only a PAID_AFTER_CLOSE reopens a closed payment" : "")));
  }
}

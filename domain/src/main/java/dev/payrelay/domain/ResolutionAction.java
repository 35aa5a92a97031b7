package dev.payrelay.domain;

import java.util.Locale;
import java.util.Optional;

/**
 * What an operator decides for a payment with an open exception (the {@code resolve} signal's
 * {@code action}).
 */
public enum ResolutionAction {
  /**
   * Accept the channel's word: mark PAID with the channel's transaction and amount as recorded in
   * the exception, write {@code PaymentConfirmed} (source OPERATOR), then grant. From PENDING for
   * an AMOUNT_MISMATCH or CURRENCY_MISMATCH; from CLOSED or EXPIRED only for a PAID_AFTER_CLOSE
   * ({@link PaymentTransition#REOPEN_AS_PAID}).
   */
  ACCEPT_AS_PAID,
  /**
   * Close the payment: first at the channel, so the buyer can no longer pay it, then CLOSED with
   * {@code PaymentClosed}; nothing is granted. Refused for a PAID payment, when the channel says it
   * was paid (its answer is applied through the ledger instead), and while the channel cannot be
   * reached.
   */
  CLOSE,
  /** Record that the channel's money must go back; the refund itself is a later step. */
  MARK_FOR_REFUND,
  /**
   * Close the open exceptions as reviewed and leave the payment as it is: for refunds and disputes
   * the channel reported (REFUNDED, DISPUTED: settled at the channel, outside payrelay). Refused
   * when no exception is open, or while another kind is open (a DOUBLE_PAYMENT wants
   * MARK_FOR_REFUND).
   */
  ACKNOWLEDGE;

  /** Parses an action name case-insensitively; empty for anything else. */
  public static Optional<ResolutionAction> parse(String name) {
    if (name == null) {
      return Optional.empty();
    }
    for (ResolutionAction action : values()) {
      if (action.name().equals(name.trim().toUpperCase(Locale.ROOT))) {
        return Optional.of(action);
      }
    }
    return Optional.empty();
  }
}

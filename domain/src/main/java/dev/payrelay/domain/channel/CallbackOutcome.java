package dev.payrelay.domain.channel;

/**
 * What became of a verified callback. Every verified callback ends in exactly one outcome, recorded
 * in {@code webhook_inbox.outcome}.
 */
public enum CallbackOutcome {
  /** PENDING and everything matched: marked PAID with its PaymentConfirmed event. */
  CONFIRMED(true),
  /** Already PAID by this same channel transaction and amount: nothing changed. */
  DUPLICATE(true),
  /** The amount differs from ours: exception recorded, payment unchanged. */
  AMOUNT_MISMATCH(true),
  /** The currency differs from ours: exception recorded, payment unchanged. */
  CURRENCY_MISMATCH(true),
  /** Paid to another merchant account: exception recorded, payment unchanged. */
  MERCHANT_MISMATCH(true),
  /** The channel transaction already paid another payment: exception recorded. */
  TXN_CONFLICT(true),
  /** Already PAID by a different channel transaction (a double charge): exception recorded. */
  DOUBLE_PAYMENT(true),
  /** The payment was closed or expired and the channel says paid: exception recorded. */
  PAID_AFTER_CLOSE(true),
  /**
   * The channel says the payment's money went back to the buyer, in whole or in part: exception
   * recorded for review (e.g. whether to take back what was granted), payment unchanged. Only for a
   * callback that names no refund ({@link VerifiedCallback#refunds} empty); one that names its
   * refunds ends in one of the REFUND_ outcomes below.
   */
  REFUNDED(true),
  /**
   * The channel says the buyer disputed the payment (a chargeback or complaint): exception recorded
   * for review, payment unchanged.
   */
  DISPUTED(true),
  /**
   * It reported refunds ({@link VerifiedCallback#refunds}) and at least one changed a refund of
   * ours (SUCCEEDED with its PaymentRefunded event, FAILED, or SUBMITTED while the channel works on
   * it); the others, if any, were already applied.
   */
  REFUND_APPLIED(true),
  /**
   * Every refund it reported was already applied as reported (a repeat under any notification id,
   * e.g. Alipay's TRADE_FINISHED repeating a partial refund): nothing changed.
   */
  REFUND_DUPLICATE(true),
  /**
   * It reported a refund we never requested (made in the channel's dashboard): recorded once as a
   * refund of origin CHANNEL and applied like ours, with a {@code REFUND_NOT_REQUESTED} exception
   * for an operator's review.
   */
  REFUND_NOT_REQUESTED(true),
  /**
   * A refund it reported disagrees with ours (amount, currency, the channel's refund id, an outcome
   * contradicting the recorded one, more than captured, a payment never paid): {@code
   * REFUND_MISMATCH} exception recorded for review, that refund not applied.
   */
  REFUND_MISMATCH(true),
  /** A non-PAID status that moves no money and changes nothing (e.g. "pending" after PAID). */
  STALE_STATUS(true),
  /**
   * The payment it names was created at another channel: nothing changed, nothing recorded against
   * that payment. Only the channel a payment was created at may speak for it, so one channel's
   * secret (e.g. the sandbox's) never confirms, nor flags, another channel's payment.
   */
  OTHER_CHANNEL(true),
  /**
   * The payment it names belongs to another merchant account of this channel than the one whose
   * secret or key verified the callback: refused (HTTP 403), nothing changed, nothing recorded
   * against that payment. The verifying account decides the merchant, and so the tenant, never a
   * field of the body, so one tenant's secret never confirms, nor flags, another tenant's payment.
   * Recorded in the inbox row, and counted; retrying cannot change it.
   */
  OTHER_ACCOUNT(true),
  /**
   * It names a payment id of a form payrelay never mints ({@link
   * dev.payrelay.domain.PaymentIds#isOurs}), e.g. another integration's event on a Stripe account
   * we share: acknowledged so the channel stops retrying (Stripe disables an endpoint that keeps
   * failing), nothing changed, recorded in the inbox and counted.
   */
  NOT_OURS(true),
  /** We have no such payment (yet): the channel should retry later. */
  UNKNOWN_PAYMENT(false);

  private final boolean acknowledged;

  CallbackOutcome(boolean acknowledged) {
    this.acknowledged = acknowledged;
  }

  /**
   * Whether the outcome is durably recorded so the channel may stop retrying; false means retrying
   * later can help.
   */
  public boolean acknowledged() {
    return acknowledged;
  }

  /**
   * Whether this exception says the channel took the buyer's money for the payment in a way our
   * records did not accept (a wrong amount or currency, a second charge, money after the close):
   * until an operator decides it ({@code MARK_FOR_REFUND} or {@code ACCEPT_AS_PAID}), neither an
   * operator's {@code CLOSE} nor the expiry at the deadline may end the payment as "nothing paid".
   */
  public boolean reportsMoneyReceived() {
    return switch (this) {
      case AMOUNT_MISMATCH, CURRENCY_MISMATCH, DOUBLE_PAYMENT, PAID_AFTER_CLOSE -> true;
      default -> false;
    };
  }

  /** Whether this outcome records a {@code payment_exception} for review. */
  public boolean isException() {
    return switch (this) {
      case AMOUNT_MISMATCH,
          CURRENCY_MISMATCH,
          MERCHANT_MISMATCH,
          TXN_CONFLICT,
          DOUBLE_PAYMENT,
          PAID_AFTER_CLOSE,
          REFUNDED,
          DISPUTED,
          REFUND_NOT_REQUESTED,
          REFUND_MISMATCH ->
          true;
      default -> false;
    };
  }
}

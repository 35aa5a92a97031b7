package dev.payrelay.ledger.refund;

import dev.payrelay.domain.Money;
import dev.payrelay.ledger.db.generated.tables.records.PaymentOrderRecord;

/**
 * What the channel captured in a payment's own transaction ({@code payment_order.captured_*}, V21):
 * the amount its refunds are held against. It differs from the payment's amount after an operator's
 * ACCEPT_AS_PAID of the channel's other amount or currency, so refunds are capped, and called full,
 * by it and never by {@code amount_minor}.
 */
final class OwnCapture {

  private OwnCapture() {}

  /**
   * The captured amount of a paid payment, in ISO 4217 minor units of its captured currency.
   *
   * @throws IllegalStateException when the payment was never paid (no captured amount): a refund of
   *     it is refused before this is asked
   */
  static Money of(PaymentOrderRecord payment) {
    if (payment.getCapturedAmountMinor() == null || payment.getCapturedCurrency() == null) {
      throw new IllegalStateException(
          "payment " + payment.getPaymentId() + " has no captured amount (never paid)");
    }
    return Money.ofMinor(payment.getCapturedAmountMinor(), payment.getCapturedCurrency());
  }
}

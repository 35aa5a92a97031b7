package dev.payrelay.ledger.payment;

/** Entitlements were asked for a payment that is not PAID: never grant. */
public final class PaymentNotPaidException extends RuntimeException {

  /** The payment and its status (or that it does not exist). */
  public PaymentNotPaidException(String paymentId, String status) {
    super("payment " + paymentId + " is " + status + ", not PAID: nothing granted");
  }
}

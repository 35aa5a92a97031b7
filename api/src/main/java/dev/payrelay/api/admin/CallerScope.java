package dev.payrelay.api.admin;

import dev.payrelay.api.NotFoundException;
import dev.payrelay.api.auth.ApiKey;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;

/**
 * What a caller's API key may see: a payment of a tenant the key may not act for is answered as if
 * it did not exist, so a key learns nothing about other tenants.
 */
final class CallerScope {

  private CallerScope() {}

  /**
   * The payment {@code paymentId}, if {@code caller} may act for its tenant.
   *
   * @throws NotFoundException if there is no such payment, or it is another tenant's
   */
  static PaymentRow payment(PaymentStore payments, String paymentId, ApiKey caller) {
    return payments
        .find(paymentId)
        .filter(p -> caller.mayActFor(p.tenantId()))
        .orElseThrow(() -> new NotFoundException("no payment " + paymentId));
  }
}

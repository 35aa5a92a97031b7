package dev.payrelay.api;

import dev.payrelay.sql.EntitlementRow;
import dev.payrelay.sql.EntitlementStore;
import dev.payrelay.sql.OutboxRow;
import dev.payrelay.sql.OutboxStore;
import dev.payrelay.sql.PaymentRow;
import dev.payrelay.sql.PaymentStore;
import java.util.List;
import java.util.Optional;

/** Reads a payment's trail from our own tables (the Temporal test server cannot list workflows). */
public final class PaymentQueries {

  /**
   * A payment with its outbox events and granted entitlements.
   *
   * @param payment the payment row
   * @param events its outbox events in write order
   * @param entitlements what it granted
   */
  public record PaymentTrail(
      PaymentRow payment, List<OutboxRow> events, List<EntitlementRow> entitlements) {}

  private final PaymentStore payments;
  private final OutboxStore outbox;
  private final EntitlementStore entitlements;

  /** Queries over the three stores. */
  public PaymentQueries(PaymentStore payments, OutboxStore outbox, EntitlementStore entitlements) {
    this.payments = payments;
    this.outbox = outbox;
    this.entitlements = entitlements;
  }

  /** The payment's trail, or empty if there is no such payment. */
  public Optional<PaymentTrail> trail(String paymentId) {
    return payments
        .find(paymentId)
        .map(
            p ->
                new PaymentTrail(
                    p, outbox.forPayment(paymentId), entitlements.forPurchase(paymentId)));
  }
}

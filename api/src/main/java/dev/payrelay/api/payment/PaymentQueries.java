package dev.payrelay.api.payment;

import dev.payrelay.ledger.outbox.OutboxRow;
import dev.payrelay.ledger.outbox.OutboxStore;
import dev.payrelay.ledger.payment.EntitlementRow;
import dev.payrelay.ledger.payment.EntitlementStore;
import dev.payrelay.ledger.payment.PaymentAudit;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.temporal.client.WorkflowInspection;
import dev.payrelay.temporal.client.WorkflowSummary;
import java.util.List;
import java.util.Optional;

/**
 * Reads a payment's trail from our own tables (the Temporal test server cannot list workflows),
 * with its workflow as Temporal describes it when a Temporal client is given.
 */
public final class PaymentQueries {

  /**
   * A payment with everything on-call needs about it.
   *
   * @param payment the payment row
   * @param events its outbox events in write order
   * @param entitlements what it granted
   * @param exceptions callbacks that disagreed with it, open or resolved
   * @param operatorActions operator decisions on it and its events
   * @param workflow its workflow ({@link WorkflowSummary}: reachable false when Temporal did not
   *     answer, the rest of the trail still read from the ledger), or null when the API runs
   *     without a Temporal client
   */
  public record PaymentTrail(
      PaymentRow payment,
      List<OutboxRow> events,
      List<EntitlementRow> entitlements,
      List<PaymentAudit.ExceptionEntry> exceptions,
      List<PaymentAudit.ActionEntry> operatorActions,
      WorkflowSummary workflow) {}

  private final PaymentStore payments;
  private final OutboxStore outbox;
  private final EntitlementStore entitlements;
  private final PaymentAudit audit;
  private final WorkflowInspection workflows;

  /**
   * Queries over the stores, and over Temporal through {@code workflows} (null: trails carry no
   * workflow).
   */
  public PaymentQueries(
      PaymentStore payments,
      OutboxStore outbox,
      EntitlementStore entitlements,
      PaymentAudit audit,
      WorkflowInspection workflows) {
    this.payments = payments;
    this.outbox = outbox;
    this.entitlements = entitlements;
    this.audit = audit;
    this.workflows = workflows;
  }

  /** The payment's trail, or empty if there is no such payment. */
  public Optional<PaymentTrail> trail(String paymentId) {
    return payments
        .find(paymentId)
        .map(
            p -> {
              List<OutboxRow> events = outbox.forPayment(paymentId);
              List<String> eventIds = events.stream().map(OutboxRow::eventId).toList();
              return new PaymentTrail(
                  p,
                  events,
                  entitlements.forPurchase(paymentId),
                  audit.exceptions(paymentId),
                  audit.actions(paymentId, eventIds),
                  workflows == null ? null : workflows.payment(paymentId));
            });
  }
}

package dev.payrelay.ledger.operator;

import dev.payrelay.domain.ResolutionAction;

/**
 * An operator's validated decision for one payment.
 *
 * @param paymentId the payment
 * @param operator who decided (an operator's login or name)
 * @param reason why, in the operator's words
 * @param action what to do
 * @param actionKey the decision's idempotency key ({@link OperatorAction#key}), or null
 */
public record OperatorDecision(
    String paymentId, String operator, String reason, ResolutionAction action, String actionKey) {

  /** A decision without an action key: each call is a new action. */
  public OperatorDecision(
      String paymentId, String operator, String reason, ResolutionAction action) {
    this(paymentId, operator, reason, action, null);
  }

  /** The request as audited. */
  public OperatorAction asked() {
    return new OperatorAction(
        actionKey, operator, action.name(), PaymentResolutions.TARGET, paymentId, reason);
  }
}

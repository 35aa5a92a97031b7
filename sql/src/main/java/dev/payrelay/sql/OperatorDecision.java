package dev.payrelay.sql;

import dev.payrelay.domain.ResolutionAction;

/**
 * An operator's validated decision for one payment.
 *
 * @param paymentId the payment
 * @param operator who decided (an operator's login or name)
 * @param reason why, in the operator's words
 * @param action what to do
 */
public record OperatorDecision(
    String paymentId, String operator, String reason, ResolutionAction action) {}

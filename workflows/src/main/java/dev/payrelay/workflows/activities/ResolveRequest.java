package dev.payrelay.workflows.activities;

/**
 * Argument of {@link ResolutionActivities#resolve}: a validated decision.
 *
 * @param paymentId the payment
 * @param operator who decided
 * @param reason why
 * @param action a {@code dev.payrelay.domain.ResolutionAction} name
 */
public record ResolveRequest(String paymentId, String operator, String reason, String action) {}

package dev.payrelay.workflows.activities;

/**
 * Argument of {@link ResolutionActivities#resolve}: a validated decision.
 *
 * @param paymentId the payment
 * @param operator who decided
 * @param reason why
 * @param action a {@code dev.payrelay.domain.ResolutionAction} name
 * @param actionKey the operator action's idempotency key ({@code {workflowId}:{originalRunId}:{n}},
 *     n counting the run's operator signals): a retry with the same key gets the stored result
 */
public record ResolveRequest(
    String paymentId, String operator, String reason, String action, String actionKey) {}

package dev.payrelay.workflows.activities;

/**
 * Argument of {@link EntitlementActivities#grant}.
 *
 * @param paymentId the PAID payment (the purchase id of its entitlements)
 */
public record GrantEntitlementsRequest(String paymentId) {}

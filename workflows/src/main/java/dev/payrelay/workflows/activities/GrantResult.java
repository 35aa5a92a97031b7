package dev.payrelay.workflows.activities;

import java.util.List;

/**
 * Result of {@link EntitlementActivities#grant}.
 *
 * @param paymentId the purchase
 * @param newlyGranted course ids inserted by this call
 * @param alreadyGranted course ids found already granted (by the unique key)
 */
public record GrantResult(
    String paymentId, List<String> newlyGranted, List<String> alreadyGranted) {}

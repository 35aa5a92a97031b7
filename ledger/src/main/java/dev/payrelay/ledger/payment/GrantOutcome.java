package dev.payrelay.ledger.payment;

import java.util.List;

/**
 * Result of {@link EntitlementStore#grant}.
 *
 * @param paymentId the purchase
 * @param userId the buyer
 * @param newlyGranted course ids inserted by this call
 * @param alreadyGranted course ids found under the unique key, granted earlier; revoked ones too
 *     (they stay revoked: {@link EntitlementRevocations})
 */
public record GrantOutcome(
    String paymentId, String userId, List<String> newlyGranted, List<String> alreadyGranted) {}

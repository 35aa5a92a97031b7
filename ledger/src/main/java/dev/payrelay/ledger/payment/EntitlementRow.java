package dev.payrelay.ledger.payment;

import java.time.Instant;

/**
 * A granted entitlement.
 *
 * @param userId the buyer
 * @param courseId the course unlocked
 * @param purchaseId the payment that bought it
 * @param grantedAt when
 */
public record EntitlementRow(
    String userId, String courseId, String purchaseId, Instant grantedAt) {}

package dev.payrelay.sql;

import java.time.LocalDateTime;

/**
 * A granted entitlement.
 *
 * @param userId the buyer
 * @param courseId the course unlocked
 * @param purchaseId the payment that bought it
 * @param grantedAt when (UTC)
 */
public record EntitlementRow(
    String userId, String courseId, String purchaseId, LocalDateTime grantedAt) {}

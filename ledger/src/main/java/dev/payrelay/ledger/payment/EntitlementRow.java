package dev.payrelay.ledger.payment;

import java.time.Instant;

/**
 * A granted entitlement, live or revoked.
 *
 * @param userId the buyer
 * @param courseId the course unlocked
 * @param purchaseId the payment that bought it
 * @param grantedAt when (database clock; equal to {@code revokedAt} for a course revoked before its
 *     grant, see {@link EntitlementRevocations})
 * @param revokedAt when a refund took it back; null while it is live
 * @param revokedByRefund the refund id that took it back; null while it is live
 */
public record EntitlementRow(
    String userId,
    String courseId,
    String purchaseId,
    Instant grantedAt,
    Instant revokedAt,
    String revokedByRefund) {

  /** Whether the buyer still has the course: not revoked. */
  public boolean live() {
    return revokedAt == null;
  }
}

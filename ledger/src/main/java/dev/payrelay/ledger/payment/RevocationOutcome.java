package dev.payrelay.ledger.payment;

import java.util.List;

/**
 * Result of {@link EntitlementRevocations#revoke}: each purchased course once, in one of three
 * lists.
 *
 * @param paymentId the refunded purchase
 * @param refundId the refund that asked
 * @param revoked course ids whose live grant this call revoked
 * @param revokedBeforeGrant course ids not granted yet, recorded revoked so no later grant lands
 * @param alreadyRevoked course ids revoked earlier (by this refund's earlier copy or another one)
 */
public record RevocationOutcome(
    String paymentId,
    String refundId,
    List<String> revoked,
    List<String> revokedBeforeGrant,
    List<String> alreadyRevoked) {

  /** Copies the lists. */
  public RevocationOutcome {
    revoked = List.copyOf(revoked);
    revokedBeforeGrant = List.copyOf(revokedBeforeGrant);
    alreadyRevoked = List.copyOf(alreadyRevoked);
  }

  /** Whether this call changed anything. */
  public boolean changed() {
    return !revoked.isEmpty() || !revokedBeforeGrant.isEmpty();
  }
}

package dev.payrelay.tools.soak;

import dev.payrelay.domain.RefundState;
import dev.payrelay.ledger.refund.RefundSnapshot;
import dev.payrelay.tools.soak.SoakAudit.Violation;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * {@code REVOCATION} of {@link SoakRefundAudit}: entitlements follow the money (issue 28 item 4). A
 * purchase whose status revokes ({@link SoakRefundAudit#revokes}) has every grant revoked, all by
 * one SUCCEEDED refund of it ({@code entitlement.revoked_by_refund}: the first revocation is kept,
 * so two revoking refunds would show as two ids); every other refunded purchase has none revoked.
 */
final class SoakRefundRevocations {

  private SoakRefundRevocations() {}

  /**
   * Adds a {@code REVOCATION} violation to {@code violations} for each refunded purchase whose
   * grants break the rule.
   *
   * @return how many purchases were revoked as they must be (all grants, by one refund)
   */
  static int check(RefundSnapshot ledger, boolean partialRevokes, List<Violation> violations) {
    Map<String, List<RefundSnapshot.Grant>> grants =
        ledger.grants().stream().collect(Collectors.groupingBy(RefundSnapshot.Grant::purchaseId));
    Map<String, Set<String>> succeeded =
        ledger.refunds().stream()
            .filter(r -> RefundState.SUCCEEDED.name().equals(r.state()))
            .collect(
                Collectors.groupingBy(
                    RefundSnapshot.Refund::paymentId,
                    Collectors.mapping(RefundSnapshot.Refund::refundId, Collectors.toSet())));
    int revokedOnce = 0;
    for (RefundSnapshot.Payment p : ledger.payments().values()) {
      List<RefundSnapshot.Grant> of = grants.getOrDefault(p.paymentId(), List.of());
      Set<String> by =
          of.stream()
              .filter(RefundSnapshot.Grant::revoked)
              .map(g -> String.valueOf(g.revokedByRefund()))
              .collect(Collectors.toSet());
      long live = of.stream().filter(g -> !g.revoked()).count();
      boolean mustRevoke = SoakRefundAudit.revokes(p.status(), partialRevokes);
      boolean once =
          !of.isEmpty()
              && live == 0
              && by.size() == 1
              && succeeded.getOrDefault(p.paymentId(), Set.of()).containsAll(by);
      if (mustRevoke && once) {
        revokedOnce++;
      } else if (mustRevoke || !by.isEmpty()) {
        violations.add(
            new Violation(
                "REVOCATION",
                p.paymentId(),
                "%s: %d grant(s), %d live, revoked by %s (SUCCEEDED refunds %s)"
                    .formatted(
                        p.status(),
                        of.size(),
                        live,
                        by,
                        succeeded.getOrDefault(p.paymentId(), Set.of()))));
      }
    }
    return revokedOnce;
  }
}

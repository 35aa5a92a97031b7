package dev.payrelay.ledger.payment;

import static dev.payrelay.ledger.db.generated.Tables.ENTITLEMENT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.ledger.checks.CheckScope;
import dev.payrelay.ledger.checks.FindingKind;
import dev.payrelay.ledger.checks.GrantGaps;
import dev.payrelay.ledger.checks.PaymentChecks;
import dev.payrelay.ledger.checks.PaymentFinding;
import dev.payrelay.ledger.db.Transactions;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.refund.RefundOutcomes;
import dev.payrelay.ledger.refund.RefundRequests;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.ledger.testing.TestDatabase;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Revoking a refunded purchase's grants against the real MariaDB: once per course, never granted
 * again by the grant activity's store, and not reported or re-driven as a missing grant by the
 * grant repair or {@code payrelay check --repair}.
 */
class EntitlementRevocationsTest {

  private static TestDatabase db;
  private static DSLContext dsl;
  private static PaymentStore payments;
  private static PaymentLedger ledger;
  private static EntitlementStore entitlements;
  private static RefundRequests refunds;
  private static RefundOutcomes outcomes;

  @BeforeAll
  static void setUp() {
    db = TestDatabase.create(EntitlementRevocationsTest.class);
    dsl = db.database().dsl();
    OutboxWriter outbox = new OutboxWriter(new EventJson());
    payments = new PaymentStore(dsl, outbox);
    ledger = new PaymentLedger(dsl, payments, outbox);
    entitlements = new EntitlementStore(dsl, payments);
    refunds = new RefundRequests(dsl, outbox);
    outcomes = new RefundOutcomes(dsl, outbox);
  }

  @AfterAll
  static void tearDown() {
    db.close();
  }

  @Test
  void revoke_revokesEveryLiveGrantOnce_andASecondRevocationKeepsTheFirstRefund() {
    PaymentRow p = paid("c1", "c2");
    entitlements.grant(p.paymentId());

    RevocationOutcome first = revoke(p, "refund-1");
    RevocationOutcome second = revoke(p, "refund-2");

    assertThat(first.revoked()).containsExactly("c1", "c2");
    assertThat(first.changed()).isTrue();
    assertThat(second.alreadyRevoked()).containsExactly("c1", "c2");
    assertThat(second.changed()).isFalse();
    List<EntitlementRow> rows = entitlements.forPurchase(p.paymentId());
    assertThat(rows).extracting(EntitlementRow::revokedByRefund).containsOnly("refund-1");
    assertThat(rows).noneMatch(EntitlementRow::live);
    assertThat(EntitlementRevocations.liveGrants(dsl, p.paymentId())).isZero();
  }

  @Test
  void aRevocationBeforeTheGrant_leavesTheCoursesRevoked_andTheLateGrantAddsNothing() {
    PaymentRow p = paid("c1", "c2");
    entitlements.grant(p.paymentId());
    dsl.deleteFrom(ENTITLEMENT)
        .where(ENTITLEMENT.PURCHASE_ID.eq(p.paymentId()))
        .and(ENTITLEMENT.COURSE_ID.eq("c2"))
        .execute();

    RevocationOutcome outcome = revoke(p, "refund-early");
    GrantOutcome late = entitlements.grant(p.paymentId());

    assertThat(outcome.revoked()).containsExactly("c1");
    assertThat(outcome.revokedBeforeGrant()).containsExactly("c2");
    assertThat(late.newlyGranted()).isEmpty();
    assertThat(late.alreadyGranted()).containsExactly("c1", "c2");
    assertThat(EntitlementRevocations.liveGrants(dsl, p.paymentId())).isZero();
  }

  @Test
  void aFullyRefundedRevokedPurchase_isNotRegranted_norReportedOrRepairedAsAMissingGrant() {
    PaymentRow p = paid("c1");
    entitlements.grant(p.paymentId());
    refundFully(p);
    revoke(p, "refund-full");

    assertThat(payments.find(p.paymentId()).orElseThrow().status())
        .isEqualTo(PaymentStatus.REFUNDED);
    assertThatThrownBy(() -> entitlements.grant(p.paymentId()))
        .isInstanceOf(PaymentNotPaidException.class);
    assertThat(EntitlementRevocations.liveGrants(dsl, p.paymentId())).isZero();
    assertNoMissingGrant(p);
  }

  @Test
  void aPartlyRefundedRevokedPurchase_owesGrants_yetTheGrantAndTheRepairsLeaveItRevoked() {
    PaymentRow p = paid("c1", "c2");
    String refundId =
        refunds
            .request("t1", p.paymentId(), 40, "partial", UUID.randomUUID().toString(), "test")
            .refund()
            .refundId();
    outcomes.succeeded(refundId, "ch-" + refundId);
    // The refund overtook the grant: revoke-all recorded both courses revoked first.
    revoke(p, refundId);

    assertThat(payments.find(p.paymentId()).orElseThrow().status())
        .isEqualTo(PaymentStatus.PARTIALLY_REFUNDED);
    assertThat(entitlements.grant(p.paymentId()).newlyGranted()).isEmpty();
    assertThat(EntitlementRevocations.liveGrants(dsl, p.paymentId())).isZero();
    assertNoMissingGrant(p);
  }

  @Test
  void revoke_ofAnUnknownPaymentOrForAnotherUser_isRefused() {
    PaymentRow p = paid("c1");
    assertThatThrownBy(
            () ->
                Transactions.run(
                    dsl,
                    cfg -> EntitlementRevocations.revoke(cfg.dsl(), "no-such", p.userId(), "r")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () ->
                Transactions.run(
                    dsl,
                    cfg -> EntitlementRevocations.revoke(cfg.dsl(), p.paymentId(), "someone", "r")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(entitlements.forPurchase(p.paymentId())).isEmpty();
  }

  private static void assertNoMissingGrant(PaymentRow p) {
    assertThat(new GrantGaps(dsl).paidWithoutGrant(Duration.ZERO, null, 1000))
        .noneMatch(h -> h.paymentId().equals(p.paymentId()));
    List<PaymentFinding> findings =
        new PaymentChecks(dsl)
            .run(new CheckScope(Duration.ZERO, Duration.ofDays(7), Duration.ofDays(3), 1000));
    assertThat(findings)
        .filteredOn(f -> p.paymentId().equals(f.paymentId()))
        .extracting(PaymentFinding::kind)
        .doesNotContain(FindingKind.PAID_WITHOUT_ENTITLEMENT);
  }

  private static void refundFully(PaymentRow p) {
    String refundId =
        refunds
            .request(
                "t1",
                p.paymentId(),
                p.amount().minorUnits(),
                "full",
                UUID.randomUUID().toString(),
                "test")
            .refund()
            .refundId();
    outcomes.succeeded(refundId, "ch-" + refundId);
  }

  private static RevocationOutcome revoke(PaymentRow p, String refundId) {
    return Transactions.run(
        dsl, cfg -> EntitlementRevocations.revoke(cfg.dsl(), p.paymentId(), p.userId(), refundId));
  }

  private static PaymentRow paid(String... courses) {
    return Payments.paid(payments, ledger, Money.parse("1.00", "USD"), courses);
  }
}

package dev.payrelay.activities;

import dev.payrelay.domain.crash.CrashPoint;
import dev.payrelay.domain.crash.CrashPoints;
import dev.payrelay.domain.failure.GrantFailure;
import dev.payrelay.ledger.payment.EntitlementStore;
import dev.payrelay.ledger.payment.GrantOutcome;
import dev.payrelay.ledger.payment.PaymentNotPaidException;
import dev.payrelay.workflows.activities.EntitlementActivities;
import dev.payrelay.workflows.activities.GrantEntitlementsRequest;
import dev.payrelay.workflows.activities.GrantResult;
import io.temporal.failure.ApplicationFailure;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Grants entitlements through {@link EntitlementStore}, idempotent by its unique business key. */
public final class EntitlementActivitiesImpl implements EntitlementActivities {

  private static final Logger log = LoggerFactory.getLogger(EntitlementActivitiesImpl.class);

  private final EntitlementStore entitlements;
  private final CrashPoints crashPoints;

  /** Activities over {@code entitlements}. */
  public EntitlementActivitiesImpl(EntitlementStore entitlements) {
    this(entitlements, CrashPoints.none());
  }

  /** As above, passing {@link CrashPoint#GRANT_AFTER_COMMIT} once the grant committed. */
  public EntitlementActivitiesImpl(EntitlementStore entitlements, CrashPoints crashPoints) {
    this.entitlements = entitlements;
    this.crashPoints = crashPoints;
  }

  @Override
  public GrantResult grant(GrantEntitlementsRequest request) {
    GrantOutcome outcome;
    try {
      outcome = entitlements.grant(request.paymentId());
    } catch (PaymentNotPaidException e) {
      throw ApplicationFailure.newNonRetryableFailureWithCause(
          e.getMessage(), GrantFailure.PAYMENT_NOT_PAID.name(), e);
    }
    crashPoints.reach(CrashPoint.GRANT_AFTER_COMMIT);
    // Our ids and counts only: the user id may be an e-mail, the courses are what the buyer bought.
    log.info(
        "payment {}: granted {} entitlement(s), {} already granted",
        outcome.paymentId(),
        outcome.newlyGranted().size(),
        outcome.alreadyGranted().size());
    return new GrantResult(outcome.paymentId(), outcome.newlyGranted(), outcome.alreadyGranted());
  }
}

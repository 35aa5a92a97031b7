package dev.payrelay.activities;

import dev.payrelay.domain.ResolutionAction;
import dev.payrelay.domain.crash.CrashPoint;
import dev.payrelay.domain.crash.CrashPoints;
import dev.payrelay.sql.OperatorAction;
import dev.payrelay.sql.OperatorDecision;
import dev.payrelay.sql.PaymentResolutions;
import dev.payrelay.sql.ResolutionOutcome;
import dev.payrelay.workflows.activities.RejectResolutionRequest;
import dev.payrelay.workflows.activities.ResolutionActivities;
import dev.payrelay.workflows.activities.ResolutionResult;
import dev.payrelay.workflows.activities.ResolveRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies operator resolutions through {@link PaymentResolutions}; every call is audited, and a
 * retry with the request's action key returns the stored result (DESIGN invariant 11).
 */
public final class ResolutionActivitiesImpl implements ResolutionActivities {

  private static final Logger log = LoggerFactory.getLogger(ResolutionActivitiesImpl.class);

  private final PaymentResolutions resolutions;
  private final CrashPoints crashPoints;

  /** Activities over {@code resolutions}. */
  public ResolutionActivitiesImpl(PaymentResolutions resolutions) {
    this(resolutions, CrashPoints.none());
  }

  /**
   * As above, passing {@link CrashPoint#OPERATOR_AFTER_COMMIT} once a resolution (or its audited
   * refusal) committed.
   */
  public ResolutionActivitiesImpl(PaymentResolutions resolutions, CrashPoints crashPoints) {
    this.resolutions = resolutions;
    this.crashPoints = crashPoints;
  }

  @Override
  public ResolutionResult resolve(ResolveRequest request) {
    ResolutionAction action = ResolutionAction.parse(request.action()).orElseThrow();
    ResolutionOutcome outcome =
        resolutions.resolve(
            new OperatorDecision(
                request.paymentId(),
                request.operator(),
                request.reason(),
                action,
                request.actionKey()));
    log.info(
        "payment {}: {} by {} {}: {} (action {})",
        request.paymentId(),
        action,
        request.operator(),
        outcome.applied() ? "applied" : "refused",
        outcome.message(),
        request.actionKey());
    return result(outcome);
  }

  @Override
  public ResolutionResult reject(RejectResolutionRequest request) {
    ResolutionOutcome outcome =
        resolutions.reject(
            new OperatorAction(
                request.actionKey(),
                request.operator(),
                request.action(),
                PaymentResolutions.TARGET,
                request.paymentId(),
                request.reason()),
            request.why());
    log.warn(
        "payment {}: resolve request refused: {} (action {})",
        request.paymentId(),
        request.why(),
        request.actionKey());
    return result(outcome);
  }

  /** The result as stored: on a retry, the payment status is the one the action left. */
  private ResolutionResult result(ResolutionOutcome outcome) {
    crashPoints.reach(CrashPoint.OPERATOR_AFTER_COMMIT);
    return new ResolutionResult(
        outcome.applied(), outcome.actionId(), outcome.message(), outcome.paymentStatus());
  }
}

package dev.payrelay.activities;

import dev.payrelay.domain.ResolutionAction;
import dev.payrelay.domain.crash.CrashPoint;
import dev.payrelay.domain.crash.CrashPoints;
import dev.payrelay.ledger.operator.OperatorAction;
import dev.payrelay.ledger.operator.OperatorDecision;
import dev.payrelay.ledger.operator.PaymentResolutions;
import dev.payrelay.ledger.operator.ResolutionOutcome;
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
  private final SignalIdentity identity;
  private final CrashPoints crashPoints;

  /** Activities over {@code resolutions}, auditing the operator {@code identity} vouches for. */
  public ResolutionActivitiesImpl(PaymentResolutions resolutions, SignalIdentity identity) {
    this(resolutions, identity, CrashPoints.none());
  }

  /**
   * As above, passing {@link CrashPoint#OPERATOR_AFTER_COMMIT} once a resolution (or its audited
   * refusal) committed.
   */
  public ResolutionActivitiesImpl(
      PaymentResolutions resolutions, SignalIdentity identity, CrashPoints crashPoints) {
    this.resolutions = resolutions;
    this.identity = identity;
    this.crashPoints = crashPoints;
  }

  /**
   * Applies the decision under the operator its signal token names; without a valid token the
   * operator is audited as unverified, and production mode refuses it ({@code REFUSED}, nothing
   * changed).
   */
  @Override
  public ResolutionResult resolve(ResolveRequest request) {
    ResolutionAction action = ResolutionAction.parse(request.action()).orElseThrow();
    SignalIdentity.Checked who = identity(request);
    OperatorDecision decision =
        new OperatorDecision(
            request.paymentId(), who.operator(), request.reason(), action, request.actionKey());
    ResolutionOutcome outcome =
        who.refusal() == null
            ? resolutions.resolve(decision)
            : resolutions.refuseUnverified(decision.asked(), who.refusal());
    log.info(
        "payment {}: {} {}: {} (action {})",
        request.paymentId(),
        action,
        outcome.applied() ? "applied" : "refused",
        outcome.message(),
        request.actionKey());
    return result(outcome);
  }

  @Override
  public boolean mayApply(ResolveRequest request) {
    if (identity(request).refusal() != null) {
      return false;
    }
    return ResolutionAction.parse(request.action()).orElseThrow() != ResolutionAction.CLOSE
        || resolutions.closeAsksChannel(request.paymentId());
  }

  private SignalIdentity.Checked identity(ResolveRequest request) {
    return identity.guarded(
        request.paymentId(),
        ResolutionAction.parse(request.action()).orElseThrow().name(),
        request.paymentId(),
        request.operator(),
        request.token());
  }

  @Override
  public ResolutionResult reject(RejectResolutionRequest request) {
    String action =
        ResolutionAction.parse(request.action()).map(Enum::name).orElse(request.action());
    String operator =
        identity.audited(
            request.paymentId(), action, request.paymentId(), request.operator(), request.token());
    ResolutionOutcome outcome =
        resolutions.reject(
            new OperatorAction(
                request.actionKey(),
                operator,
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

package dev.payrelay.activities;

import dev.payrelay.domain.ResolutionAction;
import dev.payrelay.sql.OperatorDecision;
import dev.payrelay.sql.PaymentResolutions;
import dev.payrelay.sql.PaymentRow;
import dev.payrelay.sql.PaymentStore;
import dev.payrelay.sql.ResolutionOutcome;
import dev.payrelay.workflows.activities.RejectResolutionRequest;
import dev.payrelay.workflows.activities.ResolutionActivities;
import dev.payrelay.workflows.activities.ResolutionResult;
import dev.payrelay.workflows.activities.ResolveRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Applies operator resolutions through {@link PaymentResolutions}; every call is audited. */
public final class ResolutionActivitiesImpl implements ResolutionActivities {

  private static final Logger log = LoggerFactory.getLogger(ResolutionActivitiesImpl.class);

  private final PaymentResolutions resolutions;
  private final PaymentStore payments;

  /** Activities over {@code resolutions}, reading the resulting status from {@code payments}. */
  public ResolutionActivitiesImpl(PaymentResolutions resolutions, PaymentStore payments) {
    this.resolutions = resolutions;
    this.payments = payments;
  }

  @Override
  public ResolutionResult resolve(ResolveRequest request) {
    ResolutionAction action = ResolutionAction.parse(request.action()).orElseThrow();
    ResolutionOutcome outcome =
        resolutions.resolve(
            new OperatorDecision(
                request.paymentId(), request.operator(), request.reason(), action));
    log.info(
        "payment {}: {} by {} {}: {}",
        request.paymentId(),
        action,
        request.operator(),
        outcome.applied() ? "applied" : "refused",
        outcome.message());
    return result(request.paymentId(), outcome);
  }

  @Override
  public ResolutionResult reject(RejectResolutionRequest request) {
    ResolutionOutcome outcome =
        resolutions.reject(
            request.paymentId(),
            request.operator(),
            request.action(),
            request.reason(),
            request.why());
    log.warn("payment {}: resolve request rejected: {}", request.paymentId(), request.why());
    return result(request.paymentId(), outcome);
  }

  private ResolutionResult result(String paymentId, ResolutionOutcome outcome) {
    String status = payments.find(paymentId).map(PaymentRow::status).map(Enum::name).orElse(null);
    return new ResolutionResult(outcome.applied(), outcome.actionId(), outcome.message(), status);
  }
}

package dev.payrelay.activities;

import dev.payrelay.domain.crash.CrashPoint;
import dev.payrelay.domain.crash.CrashPoints;
import dev.payrelay.ledger.operator.OperatorAction;
import dev.payrelay.ledger.outbox.DeadEvents;
import dev.payrelay.ledger.outbox.EventOperationOutcome;
import dev.payrelay.workflows.activities.EventOperationRequest;
import dev.payrelay.workflows.activities.EventOperationResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator side of {@link OutboxActivitiesImpl}: replay, discard or reject a DEAD event, each
 * audited under the operator {@link SignalIdentity} vouches for; in production mode a replay or
 * discard without a valid signal token is refused (REFUSED, the event untouched).
 */
final class DeadEventOperations {

  private static final Logger log = LoggerFactory.getLogger(DeadEventOperations.class);

  private final DeadEvents deadEvents;
  private final SignalIdentity identity;
  private final CrashPoints crashPoints;

  DeadEventOperations(DeadEvents deadEvents, SignalIdentity identity, CrashPoints crashPoints) {
    this.deadEvents = deadEvents;
    this.identity = identity;
    this.crashPoints = crashPoints;
  }

  EventOperationResult replay(EventOperationRequest r) {
    SignalIdentity.Checked who = guarded(r);
    OperatorAction asked = asked(r, who.operator());
    return result(
        who.refusal() == null
            ? deadEvents.replay(r.paymentId(), asked)
            : deadEvents.refuseUnverified(asked, who.refusal()));
  }

  EventOperationResult discard(EventOperationRequest r) {
    SignalIdentity.Checked who = guarded(r);
    OperatorAction asked = asked(r, who.operator());
    return result(
        who.refusal() == null
            ? deadEvents.discard(r.paymentId(), asked)
            : deadEvents.refuseUnverified(asked, who.refusal()));
  }

  EventOperationResult reject(EventOperationRequest r) {
    String operator =
        identity.audited(
            r.paymentId(), r.operation(), String.valueOf(r.eventId()), r.operator(), r.token());
    return result(deadEvents.reject(asked(r, operator), r.rejection()));
  }

  private SignalIdentity.Checked guarded(EventOperationRequest r) {
    return identity.guarded(r.paymentId(), r.operation(), r.eventId(), r.operator(), r.token());
  }

  private static OperatorAction asked(EventOperationRequest r, String operator) {
    return DeadEvents.asked(r.actionKey(), r.eventId(), operator, r.reason(), r.operation());
  }

  private EventOperationResult result(EventOperationOutcome o) {
    crashPoints.reach(CrashPoint.OPERATOR_AFTER_COMMIT);
    log.info("operator event operation {}: {}", o.applied() ? "applied" : "refused", o.message());
    return new EventOperationResult(o.applied(), o.actionId(), o.message(), o.eventType(), o.seq());
  }
}

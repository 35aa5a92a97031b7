package dev.payrelay.cli;

import dev.payrelay.app.dispatch.WorkflowHandoff;
import dev.payrelay.app.runtime.Services;
import dev.payrelay.ledger.checks.PaymentFinding;
import dev.payrelay.ledger.operator.OperatorAction;
import dev.payrelay.ledger.operator.OperatorActions;
import dev.payrelay.ledger.operator.OperatorAnswer;
import dev.payrelay.ledger.outbox.EventHandoff;
import dev.payrelay.ledger.outbox.OutboxRow;
import dev.payrelay.ledger.payment.GrantOutcome;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.workflows.WorkflowIds;
import java.util.HashMap;
import java.util.Map;

/**
 * Applies {@code payrelay check --repair}'s safe repairs ({@link CheckRepair}) for one operator and
 * audits each in {@code operator_action} (APPLIED with what was sent, or REJECTED with why not).
 * One check hands each event over once, however many findings it re-drives; the audit row of each
 * finding says what was sent for it. A repair is a hand-over, not a proof: the next check shows
 * whether it took.
 */
final class CheckRepairs {

  private final Services services;
  private final WorkflowHandoff handoff;
  private final String operator;
  private final Map<String, HandedOver> handedOver = new HashMap<>();

  private record HandedOver(boolean toRunningRun, String detail) {}

  CheckRepairs(Services services, WorkflowHandoff handoff, String operator) {
    this.services = services;
    this.handoff = handoff;
    this.operator = operator;
  }

  /**
   * Repairs {@code f} with {@code repair} and audits it.
   *
   * @return the finding's {@code repair} text: {@code REGRANT: APPLIED (operator_action 17)}, or
   *     {@code REGRANT: FAILED <why>} when Temporal or the database refused
   */
  String apply(PaymentFinding f, CheckRepair repair) {
    try {
      OperatorAnswer done = audit(f, repair, OperatorAnswer.applied(repairOnce(f, repair)));
      return repair.name() + ": APPLIED (operator_action " + done.actionId() + ")";
    } catch (RuntimeException e) {
      String why = String.valueOf(e.getMessage());
      try {
        audit(f, repair, OperatorAnswer.rejected("not applied: " + why));
      } catch (RuntimeException auditFailed) {
        why += " (and its audit row could not be written: " + auditFailed.getMessage() + ")";
      }
      return repair.name() + ": FAILED " + why;
    }
  }

  private String repairOnce(PaymentFinding f, CheckRepair repair) {
    HandedOver sent = handedOver.get(f.eventId());
    if (sent == null) {
      sent = handOver(f.eventId());
      handedOver.put(f.eventId(), sent);
    }
    if (repair != CheckRepair.REGRANT || !sent.toRunningRun()) {
      return sent.detail();
    }
    // A running run dedupes the event id and grants once per run; the grant's key makes this safe.
    GrantOutcome g = services.entitlements().grant(f.paymentId());
    return sent.detail()
        + "; its run was running, so granted directly: new "
        + g.newlyGranted()
        + ", already "
        + g.alreadyGranted();
  }

  private HandedOver handOver(String eventId) {
    OutboxRow event =
        services
            .outbox()
            .find(eventId)
            .orElseThrow(() -> new IllegalStateException("outbox event " + eventId + " is gone"));
    PaymentRow p =
        services
            .payments()
            .find(event.aggregateId())
            .orElseThrow(() -> new IllegalStateException("no payment " + event.aggregateId()));
    boolean running = handoff.workflowRunning(p.paymentId());
    handoff.redeliver(
        new EventHandoff(
            event.eventId(),
            event.seq(),
            event.eventType(),
            p.paymentId(),
            p.tenantId(),
            p.orderId(),
            p.channel(),
            p.expiresAt()));
    return new HandedOver(
        running,
        "signalWithStart "
            + WorkflowIds.payment(p.paymentId())
            + " onOutboxEvent "
            + event.eventType()
            + " "
            + eventId
            + (running
                ? " (to its running run)"
                : " (no run was running: a new run reads the ledger first)"));
  }

  private OperatorAnswer audit(PaymentFinding f, CheckRepair repair, OperatorAnswer answer) {
    return OperatorActions.record(
        services.database().dsl(),
        new OperatorAction(
            null, operator, repair.action(), repair.targetType(), repair.targetId(f), f.reason()),
        answer.withEvent(f.eventId(), null, 0));
  }
}

package dev.payrelay.cli;

import dev.payrelay.app.dispatch.WorkflowHandoff;
import dev.payrelay.ledger.checks.PaymentFinding;
import dev.payrelay.ledger.operator.PaymentResolutions;
import dev.payrelay.ledger.outbox.DeadEvents;

/**
 * The safe repairs of {@code payrelay check --repair}. Each hands an outbox event that already
 * exists, with its own event id, to its payment's workflow by signalWithStart (the outbox
 * dispatcher's and the grant repair's {@link WorkflowHandoff}); nothing writes a new event. Each is
 * audited in {@code operator_action} as {@code CHECK_REPAIR_<name>}.
 */
enum CheckRepair {
  /**
   * A PAID payment missing an entitlement: its {@code PaymentConfirmed} again. A workflow that is
   * not running starts a new run, which reads the ledger (PAID) and grants; a running run ignores
   * an event id it has seen, so then the grant is also made directly, idempotent by its key.
   */
  REGRANT(PaymentResolutions.TARGET),
  /** An event PENDING or DISPATCHED past the age: that event again, published by the workflow. */
  REPUBLISH(DeadEvents.TARGET),
  /**
   * A PAID payment without a workflow, or whose latest run contradicts the ledger: its {@code
   * PaymentConfirmed} again, so a run that reads the ledger first takes it to PAID and FULFILLED.
   */
  REDRIVE(PaymentResolutions.TARGET);

  private final String targetType;

  CheckRepair(String targetType) {
    this.targetType = targetType;
  }

  /** The {@code operator_action.action}. */
  String action() {
    return "CHECK_REPAIR_" + name();
  }

  /** The {@code operator_action.target_type}: {@code payment} or {@code outbox_event}. */
  String targetType() {
    return targetType;
  }

  /** The {@code operator_action.target_id}. */
  String targetId(PaymentFinding f) {
    return this == REPUBLISH ? f.eventId() : f.paymentId();
  }

  /** The safe repair of {@code f}, or null when it has none (it needs an event to hand over). */
  static CheckRepair of(PaymentFinding f) {
    if (f.eventId() == null) {
      return null;
    }
    return switch (f.kind()) {
      case EVENT_NOT_SENT -> REPUBLISH;
      case PAID_WITHOUT_ENTITLEMENT -> REGRANT;
      case PAID_WITHOUT_WORKFLOW, WORKFLOW_STATE_MISMATCH -> REDRIVE;
      default -> null;
    };
  }

  /** What an operator should do about a finding without a safe repair. */
  static String manual(PaymentFinding f) {
    String id = f.paymentId();
    return "MANUAL: "
        + switch (f.kind()) {
          case PAID_WITHOUT_CONFIRMED_EVENT ->
              "find how PAID committed without its event (restored backup? hand edit?) and tell"
                  + " consumers by hand; writing a new event is no automatic repair";
          case EVENT_DEAD ->
              "./payrelay outbox replay " + f.eventId() + " --reason <why> (or discard it)";
          case ENTITLEMENT_NOT_PURCHASED ->
              "review the grant; revoke it by hand if payment " + id + " does not owe it";
          case PAID_TWICE ->
              "./payrelay resolve " + id + " --action MARK_FOR_REFUND --reason <why>";
          case OPEN_EXCEPTION ->
              "read it (./payrelay payment show "
                  + id
                  + "), then ./payrelay resolve "
                  + id
                  + " --action ACCEPT_AS_PAID|MARK_FOR_REFUND|CLOSE|ACKNOWLEDGE --reason <why>";
          case PENDING_PAST_DEADLINE ->
              "is the worker running? its expiry sweep and the payment's channel watch close it;"
                  + " else ./payrelay payment show "
                  + id
                  + " and ./payrelay resolve "
                  + id
                  + " --action CLOSE --reason <why> (refused if the channel says PAID)";
          case QUARANTINED_MESSAGE -> QuarantineFindings.fix(f);
          case ENTITLED_NOT_PAID ->
              "revoke its entitlements by hand (or, if the channel holds its money and it has a"
                  + " PAID_AFTER_CLOSE exception: ./payrelay resolve "
                  + id
                  + " --action ACCEPT_AS_PAID ...)";
          case PAID_WITHOUT_ENTITLEMENT, PAID_WITHOUT_WORKFLOW, WORKFLOW_STATE_MISMATCH ->
              "no PaymentConfirmed event to hand over: purged after the SENT retention, or never"
                  + " written (then a PAID_WITHOUT_CONFIRMED_EVENT finding says so, and that comes"
                  + " first); for a purged one, ./payrelay reconcile --date <the day it was paid>"
                  + " re-grants it (ENTITLEMENT_MISSING)";
          case EVENT_NOT_SENT -> "hand the event over again: ./payrelay check --repair";
          case CHANNEL_QUERIES_FAILING ->
              "none while the channel recovers (the next answer clears it); else fix what the"
                  + " error names (the channel's status, our credentials), then requery, extend"
                  + " the deadline or ./payrelay resolve "
                  + id
                  + " --action CLOSE --reason <why>";
          case REFUNDED_MORE_THAN_CAPTURED ->
              "compare ./payrelay refund list "
                  + id
                  + " with the channel's refunds of the payment; a refund recorded SUCCEEDED that"
                  + " the channel does not hold is a ledger error to correct by hand, never by"
                  + " refunding again";
          case REFUND_WITHOUT_EVENT ->
              "find how the refund committed SUCCEEDED without its event (restored backup? hand"
                  + " edit?), tell consumers by hand and revoke the grants a full refund takes"
                  + " back; writing a new event is no automatic repair";
          case REFUNDED_WITH_LIVE_GRANTS ->
              "is the refund consumer running and its PaymentRefunded event SENT? (./payrelay"
                  + " payment show "
                  + id
                  + "); else revoke the purchase's entitlements by hand";
          case REFUND_UNKNOWN_TOO_LONG ->
              "is the worker running? the refund's workflow queries the channel by our refund"
                  + " number; read its state in the Temporal UI (./payrelay refund list "
                  + id
                  + ") and ask the channel with that number; never submit a second refund";
          case CALLBACK_NOT_DECIDED ->
              "nothing to redo while the channel still retries a callback it got no answer for,"
                  + " and a PENDING payment's channel watch asks the channel after its deadline;"
                  + " if the payment stays undecided, read the row's raw_body and headers in"
                  + " webhook_inbox and ask the channel";
        };
  }
}

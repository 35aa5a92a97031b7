package dev.payrelay.ledger.refund;

import dev.payrelay.domain.RefundState;
import dev.payrelay.ledger.db.Transactions;
import dev.payrelay.ledger.operator.OperatorAction;
import dev.payrelay.ledger.operator.OperatorActions;
import dev.payrelay.ledger.operator.OperatorAnswer;
import dev.payrelay.ledger.refund.RefundOutcomes.Locked;
import java.util.function.Function;
import org.jooq.DSLContext;

/**
 * An operator's actions on a refund whose channel outcome is unknown (the refund workflow's {@code
 * requery}, {@code acceptAsRefunded}, {@code markFailed} signals), each audited in {@code
 * operator_action} (target type {@value #TARGET}, target id the refund id) in the same transaction
 * as its effect, and answered once per action key ({@link OperatorActions#once}): a retried
 * activity gets the first answer. Every action is REJECTED once the ledger has settled the refund
 * (SUCCEEDED or FAILED): the channel's word, or an earlier operator's, stands.
 */
public final class RefundResolutions {

  /** The {@code operator_action.target_type} of a refund's actions. */
  public static final String TARGET = "refund";

  private final DSLContext dsl;
  private final RefundOutcomes outcomes;

  /** Resolutions over {@code dsl}, whose effects go through {@code outcomes}. */
  public RefundResolutions(DSLContext dsl, RefundOutcomes outcomes) {
    this.dsl = dsl;
    this.outcomes = outcomes;
  }

  /**
   * The operator has the channel's evidence that the money went back: the refund SUCCEEDED with
   * {@code channelRefundId} through {@link RefundOutcomes#succeeded} (payment refunded, one {@code
   * PaymentRefunded} event), audited APPLIED with the event id and the payment's status.
   *
   * @param asked the action; its target id is the refund id
   * @param channelRefundId the channel's refund id the operator read at the channel (the evidence)
   */
  public OperatorAnswer acceptAsRefunded(OperatorAction asked, String channelRefundId) {
    return whileOpen(
        asked,
        (tx) -> {
          RefundOutcome o = outcomes.succeeded(tx, asked.targetId(), channelRefundId);
          return OperatorAnswer.applied(
                  "refund SUCCEEDED with channel refund id "
                      + channelRefundId
                      + "; payment "
                      + o.paymentStatus())
              .withPaymentStatus(o.paymentStatus().name())
              .withEvent(o.eventId(), null, 0);
        });
  }

  /**
   * The operator has the channel's word that no money went back: the refund FAILED with the
   * operator's reason through {@link RefundOutcomes#failed} (its amount may be refunded again),
   * audited APPLIED.
   */
  public OperatorAnswer markFailed(OperatorAction asked) {
    return whileOpen(
        asked,
        (tx) -> {
          RefundOutcome o =
              outcomes.failed(
                  tx, asked.targetId(), "marked failed by an operator: " + asked.reason());
          return OperatorAnswer.applied("refund FAILED; its amount can be refunded again")
              .withPaymentStatus(o.paymentStatus().name());
        });
  }

  /**
   * Audits an operator's ask to query the refund now (APPLIED while it is open); no other effect.
   */
  public OperatorAnswer requery(OperatorAction asked) {
    return whileOpen(
        asked, (tx) -> OperatorAnswer.applied("the refund workflow asks the channel now"));
  }

  /** Audits an invalid request (missing fields, unknown refund) as REJECTED with {@code why}. */
  public OperatorAnswer reject(OperatorAction asked, String why) {
    return OperatorActions.once(
        dsl, asked, () -> OperatorActions.record(dsl, asked, OperatorAnswer.rejected(why)));
  }

  /** Audits a request refused for want of a verified identity as REFUSED with {@code why}. */
  public OperatorAnswer refuse(OperatorAction asked, String why) {
    return OperatorActions.once(
        dsl, asked, () -> OperatorActions.recordRefused(dsl, asked, OperatorAnswer.rejected(why)));
  }

  /**
   * Runs {@code effect} with the audit row in one transaction while the refund is open; a settled
   * refund's request is audited REJECTED instead. Once per action key.
   */
  private OperatorAnswer whileOpen(
      OperatorAction asked, Function<DSLContext, OperatorAnswer> effect) {
    return OperatorActions.once(
        dsl,
        asked,
        () ->
            Transactions.run(
                dsl,
                cfg -> {
                  DSLContext tx = cfg.dsl();
                  Locked locked = RefundOutcomes.lock(tx, asked.targetId());
                  RefundState state = RefundState.valueOf(locked.refund().getState());
                  if (state.isFinal()) {
                    return OperatorActions.record(
                        tx,
                        asked,
                        OperatorAnswer.rejected(
                                "refund "
                                    + asked.targetId()
                                    + " is already "
                                    + state
                                    + " in the ledger; nothing changed")
                            .withPaymentStatus(locked.payment().getStatus()));
                  }
                  return OperatorActions.record(tx, asked, effect.apply(tx));
                }));
  }
}

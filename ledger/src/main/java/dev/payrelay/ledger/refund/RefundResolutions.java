package dev.payrelay.ledger.refund;

import static dev.payrelay.ledger.db.generated.Tables.REFUND_SUBMISSION;

import dev.payrelay.domain.RefundState;
import dev.payrelay.domain.channel.ChannelException;
import dev.payrelay.domain.channel.ChannelRefundResult;
import dev.payrelay.ledger.db.Transactions;
import dev.payrelay.ledger.operator.OperatorAction;
import dev.payrelay.ledger.operator.OperatorActions;
import dev.payrelay.ledger.operator.OperatorAnswer;
import dev.payrelay.ledger.refund.RefundOutcomes.Locked;
import java.util.List;
import java.util.function.BiFunction;
import org.jooq.DSLContext;

/**
 * An operator's actions on a refund whose channel outcome is unknown (the refund workflow's {@code
 * requery}, {@code acceptAsRefunded}, {@code markFailed} signals), each audited in {@code
 * operator_action} (target type {@value #TARGET}, target id the refund id) in the same transaction
 * as its effect, and answered once per action key ({@link OperatorActions#once}): a retried
 * activity gets the first answer. Every action is REJECTED once the ledger has settled the refund
 * (SUCCEEDED or FAILED): the channel's word, or an earlier operator's, stands. An operator's word
 * never overrides the channel's: {@code markFailed} asks the channel first, and {@code
 * acceptAsRefunded} is refused when it names another refund than the channel gave us.
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
   * PaymentRefunded} event), audited APPLIED with the event id and the payment's status. REJECTED,
   * changing nothing, when a submission's answer already gave this refund another channel refund
   * id: the evidence is then of some other refund.
   *
   * @param asked the action; its target id is the refund id
   * @param channelRefundId the channel's refund id the operator read at the channel (the evidence)
   */
  public OperatorAnswer acceptAsRefunded(OperatorAction asked, String channelRefundId) {
    return whileOpen(
        asked,
        (tx, locked) -> {
          List<String> known = channelRefundIds(tx, asked.targetId());
          if (!known.isEmpty() && !known.contains(channelRefundId)) {
            return OperatorAnswer.rejected(
                    "the channel answered refund "
                        + locked.refund().getRefundNo()
                        + " with channel refund id "
                        + String.join(", ", known)
                        + ", not "
                        + channelRefundId
                        + "; the evidence names another refund, nothing changed")
                .withPaymentStatus(locked.payment().getStatus());
          }
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
   * Asks the channel about the refund by our refund number, then applies what it says, so an
   * operator's "mark failed" never makes money refundable twice:
   *
   * <ul>
   *   <li>FAILED: the refund FAILED with the channel's and the operator's reasons through {@link
   *       RefundOutcomes#failed} (its amount may be refunded again), APPLIED;
   *   <li>NOT_FOUND (the channel holds no refund with our number): FAILED likewise, APPLIED;
   *   <li>SUCCEEDED: the money went back, so the refund SUCCEEDED through {@link
   *       RefundOutcomes#succeeded} (payment refunded, one {@code PaymentRefunded} event), APPLIED
   *       with a message that says it was not marked failed;
   *   <li>PENDING, a SUCCEEDED without the channel's refund id, or no answer ({@link
   *       ChannelException} or any other failure of {@code channel}): REJECTED, nothing changed.
   * </ul>
   *
   * The channel is not asked about a refund the ledger already settled (REJECTED as every action
   * is), nor again for an action key that has its answer. The call runs outside the transaction,
   * which then locks the refund and applies the answer only while the refund is still open.
   *
   * @param asked the action; its target id is the refund id
   * @param channel asks the refund's channel, through the merchant account its payment was created
   *     with
   */
  public OperatorAnswer markFailed(OperatorAction asked, RefundChannelQuery channel) {
    return OperatorActions.once(
        dsl,
        asked,
        () -> {
          RefundRow refund =
              new RefundStore(dsl)
                  .find(asked.targetId())
                  .orElseThrow(
                      () ->
                          new RefundRefused(
                              RefundRefused.Reason.NOT_FOUND, "no refund " + asked.targetId()));
          if (refund.state().isFinal()) {
            // Audited REJECTED as settled; a settled refund never reopens, so no effect runs.
            return inTransaction(
                asked,
                (tx, locked) -> {
                  throw new IllegalStateException("refund " + asked.targetId() + " reopened");
                });
          }
          ChannelRefundResult answer;
          try {
            answer = channel.ask(refund);
          } catch (ChannelException | RuntimeException e) {
            return OperatorActions.record(
                dsl,
                asked,
                OperatorAnswer.rejected(
                    "could not ask the channel about refund "
                        + refund.refundNo()
                        + " ("
                        + e.getMessage()
                        + "); nothing changed: send markFailed again once the channel answers"));
          }
          return inTransaction(asked, (tx, locked) -> byTheChannel(tx, asked, refund, answer));
        });
  }

  /** {@link #markFailed}'s effect once the channel answered {@code answer}. */
  private OperatorAnswer byTheChannel(
      DSLContext tx, OperatorAction asked, RefundRow refund, ChannelRefundResult answer) {
    String number = refund.refundNo();
    return switch (answer.status()) {
      case FAILED -> {
        yield failedAsTheChannelSays(
            tx,
            asked,
            "failed at the channel ("
                + (answer.failureReason() == null ? "no reason given" : answer.failureReason())
                + ")",
            "the channel answers FAILED for refund " + number);
      }
      case NOT_FOUND -> {
        yield failedAsTheChannelSays(
            tx,
            asked,
            "the channel holds no refund " + number,
            "the channel holds no refund " + number);
      }
      case SUCCEEDED -> {
        if (answer.channelRefundId() == null || answer.channelRefundId().isBlank()) {
          yield OperatorAnswer.rejected(
              "the channel answers SUCCEEDED for refund "
                  + number
                  + " without its refund id; nothing changed: accept it with the id from the"
                  + " channel's dashboard");
        }
        RefundOutcome o = outcomes.succeeded(tx, asked.targetId(), answer.channelRefundId());
        yield OperatorAnswer.applied(
                "not marked failed: the channel answers SUCCEEDED for refund "
                    + number
                    + " (channel refund id "
                    + answer.channelRefundId()
                    + "), so the refund SUCCEEDED; payment "
                    + o.paymentStatus())
            .withPaymentStatus(o.paymentStatus().name())
            .withEvent(o.eventId(), null, 0);
      }
      case PENDING ->
          OperatorAnswer.rejected(
              "the channel still answers PENDING for refund "
                  + number
                  + "; marking it failed would let its amount be refunded twice, nothing changed:"
                  + " wait for the channel's answer (requery), or accept it with the channel's"
                  + " evidence");
    };
  }

  /** The channel refund ids the channel gave for this refund's submissions, oldest first. */
  private static List<String> channelRefundIds(DSLContext tx, String refundId) {
    return tx.selectDistinct(REFUND_SUBMISSION.CHANNEL_REFUND_ID)
        .from(REFUND_SUBMISSION)
        .where(REFUND_SUBMISSION.REFUND_ID.eq(refundId))
        .and(REFUND_SUBMISSION.CHANNEL_REFUND_ID.isNotNull())
        .orderBy(REFUND_SUBMISSION.CHANNEL_REFUND_ID)
        .fetch(REFUND_SUBMISSION.CHANNEL_REFUND_ID);
  }

  /**
   * Audits an operator's ask to query the refund now (APPLIED while it is open); no other effect.
   */
  public OperatorAnswer requery(OperatorAction asked) {
    return whileOpen(
        asked, (tx, locked) -> OperatorAnswer.applied("the refund workflow asks the channel now"));
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
      OperatorAction asked, BiFunction<DSLContext, Locked, OperatorAnswer> effect) {
    return OperatorActions.once(dsl, asked, () -> inTransaction(asked, effect));
  }

  /**
   * Locks the refund and its payment, then runs {@code effect} (given the transaction and the
   * locked rows) and writes the audit row in the same transaction; when the refund is settled,
   * writes a REJECTED row instead and does not run {@code effect}.
   */
  private OperatorAnswer inTransaction(
      OperatorAction asked, BiFunction<DSLContext, Locked, OperatorAnswer> effect) {
    return Transactions.run(
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
          return OperatorActions.record(tx, asked, effect.apply(tx, locked));
        });
  }

  /**
   * Records the refund FAILED with the channel's words and the operator's reason; the verdict says
   * what the channel answered and that the amount can be refunded again.
   */
  private OperatorAnswer failedAsTheChannelSays(
      DSLContext tx, OperatorAction asked, String channelWords, String verdict) {
    RefundOutcome o =
        outcomes.failed(
            tx,
            asked.targetId(),
            channelWords + "; marked failed by an operator: " + asked.reason());
    return OperatorAnswer.applied(verdict + ": refund FAILED; its amount can be refunded again")
        .withPaymentStatus(o.paymentStatus().name());
  }
}

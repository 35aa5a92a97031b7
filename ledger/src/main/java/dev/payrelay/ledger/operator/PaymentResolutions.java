package dev.payrelay.ledger.operator;

import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_EXCEPTION;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;

import dev.payrelay.domain.PaymentTransition;
import dev.payrelay.domain.ResolutionAction;
import dev.payrelay.domain.channel.CallbackOutcome;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.db.Transactions;
import dev.payrelay.ledger.db.UniqueKeys;
import dev.payrelay.ledger.db.generated.tables.records.PaymentExceptionRecord;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.payment.PaidAcceptance;
import dev.payrelay.ledger.payment.PaymentExceptions;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.ledger.payment.PaymentTransitions;
import dev.payrelay.ledger.refund.RefundRequests;
import java.util.List;
import java.util.Set;
import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;

/**
 * Applies an operator's resolution of a payment's open exceptions. Each resolution is one
 * transaction: its effect (payment state, outbox event), the exceptions closed, and the {@code
 * operator_action} audit row with the result commit together; a refused one writes only its audit
 * row. A decision with an action key is applied at most once: a repeat gets the stored result. A
 * {@code MARK_FOR_REFUND} also requests the refunds it calls for in that transaction ({@link
 * RefundOnResolve}).
 */
public final class PaymentResolutions {

  /** The {@code operator_action.target_type} of payment resolutions. */
  public static final String TARGET = "payment";

  private static final String CHANNEL_TXN_KEY = "uk_payment_channel_txn";

  /** The exception kind reconciliation records for a PAID payment its statement did not list. */
  private static final String MISSING_FROM_STATEMENT = "MISSING_FROM_STATEMENT";

  /**
   * The exceptions {@link ResolutionAction#ACKNOWLEDGE} closes: money the channel moved back (a
   * refund made at the channel, or one whose report disagreed with ours, is reviewed the same way),
   * and a PAID payment a day's statement did not list ({@code MISSING_FROM_STATEMENT}) once the
   * operator confirmed the money with the channel: nothing in the ledger changes for either.
   */
  private static final Set<String> ACKNOWLEDGEABLE =
      Set.of(
          CallbackOutcome.REFUNDED.name(),
          CallbackOutcome.DISPUTED.name(),
          CallbackOutcome.REFUND_NOT_REQUESTED.name(),
          CallbackOutcome.REFUND_MISMATCH.name(),
          MISSING_FROM_STATEMENT);

  private final DSLContext dsl;
  private final PaymentStore payments;
  private final PaymentTransitions transitions;
  private final PaidAcceptance acceptance;
  private final RefundOnResolve refunds;

  /**
   * Resolutions over {@code dsl}; a MARK_FOR_REFUND's refunds are announced through {@code outbox}.
   */
  public PaymentResolutions(DSLContext dsl, PaymentStore payments, OutboxWriter outbox) {
    this.dsl = dsl;
    this.payments = payments;
    this.transitions = new PaymentTransitions(outbox);
    this.acceptance = new PaidAcceptance(transitions);
    this.refunds = new RefundOnResolve(new RefundRequests(dsl, outbox));
  }

  /**
   * Applies {@code decision}, or refuses it with a reason, auditing either way, once per action
   * key: a repeat with the decision's key returns the stored result (applied, message, payment
   * status) without acting again, even when the payment has moved since. Without a key each call is
   * judged anew: a repeat finds no open exception (or a PAID payment) and is refused.
   */
  public ResolutionOutcome resolve(OperatorDecision decision) {
    OperatorAction asked = decision.asked();
    return ResolutionOutcome.of(OperatorActions.once(dsl, asked, () -> decide(asked, decision)));
  }

  /**
   * Audits a refused request (invalid action, missing operator or reason) without an action key.
   */
  public ResolutionOutcome reject(
      String paymentId, String operator, String action, String reason, String why) {
    return reject(new OperatorAction(null, operator, action, TARGET, paymentId, reason), why);
  }

  /**
   * Audits {@code asked} as REJECTED because {@code why}, once per action key: a repeat with the
   * key returns the stored refusal.
   */
  public ResolutionOutcome reject(OperatorAction asked, String why) {
    return ResolutionOutcome.of(OperatorActions.once(dsl, asked, () -> refuse(asked, why)));
  }

  /**
   * Audits {@code asked} as {@link OperatorActions#REFUSED} because its signal carried no verified
   * identity ({@code why}), once per action key; nothing else is written.
   */
  public ResolutionOutcome refuseUnverified(OperatorAction asked, String why) {
    return ResolutionOutcome.of(
        OperatorActions.once(
            dsl, asked, () -> OperatorActions.recordRefused(dsl, asked, refusal(asked, why))));
  }

  private OperatorAnswer decide(OperatorAction asked, OperatorDecision decision) {
    try {
      return Transactions.run(dsl, cfg -> apply(cfg.dsl(), asked, decision));
    } catch (ResolutionRefused refused) {
      return refuse(asked, refused.getMessage());
    } catch (DataAccessException e) {
      if (UniqueKeys.isViolationOf(e, CHANNEL_TXN_KEY)) {
        return refuse(asked, "the channel transaction already pays another payment");
      }
      throw e;
    }
  }

  /**
   * Why {@link ResolutionAction#CLOSE} of {@code paymentId} would be refused whatever its channel
   * answers, or null when it may go on: asked before the payment is closed at the channel, which a
   * later refusal cannot undo. The resolution itself checks again under the payment's lock.
   *
   * @throws IllegalArgumentException if there is no such payment
   */
  public String closeRefusal(String paymentId) {
    PaymentRow payment =
        payments
            .find(paymentId)
            .orElseThrow(() -> new IllegalArgumentException("no payment " + paymentId));
    try {
      refuseWhileMoneyReceived(PaymentExceptions.open(dsl, paymentId));
      refuseWhilePaid(payment);
      return null;
    } catch (ResolutionRefused refused) {
      return refused.getMessage();
    }
  }

  /**
   * Whether a {@link ResolutionAction#CLOSE} of {@code paymentId} is to close the payment at its
   * channel before it is resolved: only for a PENDING payment that {@link #closeRefusal} lets go
   * on. A CLOSED or EXPIRED payment was closed at the channel by the close or expiry that ended it,
   * so asking again closes nothing; its resolution answers "already CLOSED/EXPIRED" instead.
   *
   * @throws IllegalArgumentException if there is no such payment
   */
  public boolean closeAsksChannel(String paymentId) {
    if (closeRefusal(paymentId) != null) {
      return false;
    }
    return PaymentTransition.CLOSE.startsFrom(payments.find(paymentId).orElseThrow().status());
  }

  private OperatorAnswer refuse(OperatorAction asked, String why) {
    return OperatorActions.record(dsl, asked, refusal(asked, why));
  }

  /** A refusal's answer, with the payment's status as it stays. */
  private OperatorAnswer refusal(OperatorAction asked, String why) {
    String status = payments.find(asked.targetId()).map(p -> p.status().name()).orElse(null);
    return OperatorAnswer.rejected(why).withPaymentStatus(status);
  }

  private OperatorAnswer apply(DSLContext tx, OperatorAction asked, OperatorDecision d) {
    PaymentRow payment = lock(tx, d.paymentId());
    List<PaymentExceptionRecord> open = PaymentExceptions.open(tx, d.paymentId());
    Effect effect = effect(tx, payment, open, d);
    OperatorAnswer answer =
        OperatorActions.record(
            tx,
            asked,
            OperatorAnswer.applied(effect.done())
                .withPaymentStatus(statusOf(tx, d.paymentId()))
                .withEvent(effect.eventId(), null, 0));
    closeExceptions(tx, d.paymentId(), d.action(), answer.actionId());
    return answer;
  }

  /**
   * What a resolution did.
   *
   * @param eventId the outbox event it wrote, or null
   * @param done what it did in words, for the operator's answer
   */
  private record Effect(String eventId, String done) {}

  /**
   * Applies the decision's action to the locked payment with its open exceptions.
   *
   * @throws ResolutionRefused when the action does not fit the payment
   */
  private Effect effect(
      DSLContext tx, PaymentRow payment, List<PaymentExceptionRecord> open, OperatorDecision d) {
    return switch (d.action()) {
      case ACCEPT_AS_PAID -> {
        PaidAcceptance.Accepted accepted = acceptance.accept(tx, payment, open);
        yield new Effect(accepted.eventId(), accepted.done());
      }
      case CLOSE -> {
        refuseWhileMoneyReceived(open);
        yield close(tx, payment, open, d);
      }
      case MARK_FOR_REFUND -> markForRefund(tx, payment, open, d);
      case ACKNOWLEDGE -> acknowledge(payment, open);
    };
  }

  /**
   * Resolves the open exceptions as MARK_FOR_REFUND and requests the refunds they call for ({@link
   * RefundOnResolve}), naming each refund id or why none was made.
   */
  private Effect markForRefund(
      DSLContext tx, PaymentRow payment, List<PaymentExceptionRecord> open, OperatorDecision d) {
    if (open.isEmpty()) {
      throw new ResolutionRefused("no open exception to refund");
    }
    return new Effect(
        null,
        "marked for refund: channel transactions "
            + open.stream().map(PaymentExceptionRecord::getChannelTxnId).toList()
            + "; "
            + refunds.start(tx, payment, open, d));
  }

  /**
   * Closes the {@link #ACKNOWLEDGEABLE} kinds only: any other open exception needs its own decision
   * first.
   */
  private static Effect acknowledge(PaymentRow payment, List<PaymentExceptionRecord> open) {
    if (open.isEmpty()) {
      throw new ResolutionRefused("no open exception to acknowledge");
    }
    List<String> others =
        open.stream()
            .map(PaymentExceptionRecord::getKind)
            .filter(kind -> !ACKNOWLEDGEABLE.contains(kind))
            .toList();
    if (!others.isEmpty()) {
      throw new ResolutionRefused(
          "ACKNOWLEDGE closes refunds, disputes and payments missing from a statement only; resolve "
              + others
              + " first (e.g. MARK_FOR_REFUND for a DOUBLE_PAYMENT)");
    }
    return new Effect(
        null,
        "acknowledged "
            + open.stream().map(PaymentExceptionRecord::getKind).toList()
            + "; the payment stays "
            + payment.status());
  }

  private static String statusOf(DSLContext tx, String paymentId) {
    return tx.select(PAYMENT_ORDER.STATUS)
        .from(PAYMENT_ORDER)
        .where(PAYMENT_ORDER.PAYMENT_ID.eq(paymentId))
        .fetchSingle(PAYMENT_ORDER.STATUS);
  }

  /**
   * Closing as "nothing granted" would keep the buyer's money without a decision ({@link
   * CallbackOutcome#reportsMoneyReceived}): refused, naming the actions that decide it.
   */
  private static void refuseWhileMoneyReceived(List<PaymentExceptionRecord> open) {
    List<String> received = PaymentExceptions.moneyReceived(open);
    if (!received.isEmpty()) {
      throw new ResolutionRefused(
          "the channel reported money paid to us "
              + received
              + "; CLOSE would keep it undecided: MARK_FOR_REFUND to give it back, or"
              + " ACCEPT_AS_PAID, first");
    }
  }

  private static void refuseWhilePaid(PaymentRow p) {
    if (p.status().wasPaid()) {
      throw new ResolutionRefused("payment is " + p.status() + "; use MARK_FOR_REFUND");
    }
  }

  /**
   * Closes a PENDING payment. A CLOSED or EXPIRED one stays as it is: with open exceptions (none
   * reporting money, {@link #refuseWhileMoneyReceived}) the CLOSE resolves them and says the
   * payment was already closed; without any there is nothing to do, and it is refused as such.
   */
  private Effect close(
      DSLContext tx, PaymentRow p, List<PaymentExceptionRecord> open, OperatorDecision d) {
    refuseWhilePaid(p);
    if (PaymentTransition.CLOSE.startsFrom(p.status())) {
      return new Effect(
          transitions.closeUnpaid(tx, p, PaymentTransition.CLOSE, "OPERATOR", d.reason()),
          "closed; nothing granted");
    }
    String already = "payment is already " + p.status() + "; the channel was not asked again";
    if (open.isEmpty()) {
      throw new ResolutionRefused(already + ": nothing to close");
    }
    return new Effect(
        null,
        already
            + "; resolved its open exceptions "
            + open.stream().map(PaymentExceptionRecord::getKind).toList());
  }

  private PaymentRow lock(DSLContext tx, String paymentId) {
    return tx.selectFrom(PAYMENT_ORDER)
        .where(PAYMENT_ORDER.PAYMENT_ID.eq(paymentId))
        .forUpdate()
        .fetchOptional()
        .map(r -> PaymentStore.toRow(r, PaymentStore.courseIds(tx, paymentId)))
        .orElseThrow(() -> new ResolutionRefused("no payment " + paymentId));
  }

  private static void closeExceptions(
      DSLContext tx, String paymentId, ResolutionAction action, long actionId) {
    tx.update(PAYMENT_EXCEPTION)
        .set(PAYMENT_EXCEPTION.STATUS, PaymentExceptions.RESOLVED)
        .set(PAYMENT_EXCEPTION.RESOLUTION, action.name())
        .set(PAYMENT_EXCEPTION.RESOLVED_BY_ACTION_ID, actionId)
        .set(PAYMENT_EXCEPTION.RESOLVED_AT, SqlTime.now())
        .where(PAYMENT_EXCEPTION.PAYMENT_ID.eq(paymentId))
        .and(PAYMENT_EXCEPTION.STATUS.eq(PaymentExceptions.OPEN))
        .execute();
  }
}

package dev.payrelay.ledger.refund;

import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;
import static dev.payrelay.ledger.db.generated.Tables.REFUND;

import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.domain.PaymentTransition;
import dev.payrelay.domain.RefundState;
import dev.payrelay.domain.RefundTransition;
import dev.payrelay.domain.event.EventType;
import dev.payrelay.domain.event.PaymentRefunded;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.db.Transactions;
import dev.payrelay.ledger.db.generated.tables.records.PaymentOrderRecord;
import dev.payrelay.ledger.db.generated.tables.records.RefundRecord;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.payment.PaymentTransitions;
import dev.payrelay.ledger.refund.RefundRefused.Reason;
import java.util.Map;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * Records the channel's outcome of a refund (issue 28 item 2, the ledger's half), each in one local
 * transaction that locks the payment's row and then the refund's, in that order like {@link
 * RefundRequests}. Idempotent: any number of reports of one outcome make one effect.
 */
public final class RefundOutcomes {

  private static final int MAX_CHANNEL_REFUND_ID = 128;
  private static final int MAX_FAILURE_REASON = 2000;

  private final DSLContext dsl;
  private final OutboxWriter outbox;

  /** Outcomes over {@code dsl}, announced through {@code outbox}. */
  public RefundOutcomes(DSLContext dsl, OutboxWriter outbox) {
    this.dsl = dsl;
    this.outbox = outbox;
  }

  /**
   * The channel refunded the money: the refund SUCCEEDED with the channel's refund id, the payment
   * PARTIALLY_REFUNDED or, once its SUCCEEDED refunds add up to the captured amount, REFUNDED
   * ({@link PaymentTransition#REFUND_PARTIALLY}, {@link PaymentTransition#REFUND_FULLY}), and a
   * {@code PaymentRefunded} outbox event (fact key: the refund id). A refund of another capture
   * ({@link RefundRow#ofOtherCapture}, e.g. a second charge) leaves the payment's status as it is
   * and its event says so ({@code otherCapture}, never {@code full}). A refund already SUCCEEDED is
   * answered as it stands, changing nothing ({@code applied} false), whatever channel id the repeat
   * names.
   *
   * @throws RefundRefused NOT_FOUND for no such refund, OUTCOME_CONFLICT when it is FAILED, INVALID
   *     for a blank or over-long channel refund id
   */
  public RefundOutcome succeeded(String refundId, String channelRefundId) {
    RefundAsk.requireText(channelRefundId, "channelRefundId", MAX_CHANNEL_REFUND_ID);
    return Transactions.run(dsl, cfg -> succeeded(cfg.dsl(), refundId, channelRefundId));
  }

  /**
   * The channel failed or closed the refund: FAILED with its reason, and its amount can be refunded
   * again. No payment change and no event. A refund already FAILED is answered as it stands.
   *
   * @throws RefundRefused NOT_FOUND for no such refund, OUTCOME_CONFLICT when it SUCCEEDED, INVALID
   *     for a blank or over-long reason
   */
  public RefundOutcome failed(String refundId, String reason) {
    RefundAsk.requireText(reason, "reason", MAX_FAILURE_REASON);
    return Transactions.run(dsl, cfg -> failed(cfg.dsl(), refundId, reason));
  }

  /** As {@link #succeeded(String, String)} inside the caller's transaction {@code tx}. */
  RefundOutcome succeeded(DSLContext tx, String refundId, String channelRefundId) {
    Locked locked = lock(tx, refundId);
    RefundState state = RefundState.valueOf(locked.refund().getState());
    if (state == RefundState.SUCCEEDED) {
      return unchanged(locked);
    }
    requireNot(state, RefundState.FAILED, refundId);
    move(
        tx,
        refundId,
        RefundTransition.SUCCEED,
        Map.of(REFUND.CHANNEL_REFUND_ID, channelRefundId, REFUND.SUCCEEDED_AT, SqlTime.now()));
    PaymentOrderRecord payment = locked.payment();
    boolean otherCapture = locked.refund().getChannelTxnId() != null;
    long refunded = succeededMinor(tx, payment.getPaymentId());
    boolean full = !otherCapture && refunded >= OwnCapture.of(payment).minorUnits();
    PaymentStatus status =
        otherCapture ? PaymentStatus.valueOf(payment.getStatus()) : movePayment(tx, payment, full);
    RefundRecord after = reread(tx, refundId);
    String eventId =
        outbox.appendPaymentEvent(
            tx,
            EventType.PAYMENT_REFUNDED,
            payment.getPaymentId(),
            refundId,
            new PaymentRefunded(
                payment.getPaymentId(),
                payment.getTenantId(),
                payment.getOrderId(),
                payment.getUserId(),
                refundId,
                channelRefundId,
                after.getAmountMinor(),
                after.getCurrency(),
                refunded,
                full,
                otherCapture),
            PaymentRefunded.VERSION);
    return new RefundOutcome(RefundStore.toRow(after), status, true, eventId);
  }

  /** As {@link #failed(String, String)} inside the caller's transaction {@code tx}. */
  RefundOutcome failed(DSLContext tx, String refundId, String reason) {
    Locked locked = lock(tx, refundId);
    RefundState state = RefundState.valueOf(locked.refund().getState());
    if (state == RefundState.FAILED) {
      return unchanged(locked);
    }
    requireNot(state, RefundState.SUCCEEDED, refundId);
    move(tx, refundId, RefundTransition.FAIL, Map.of(REFUND.FAILURE_REASON, reason));
    return new RefundOutcome(
        RefundStore.toRow(reread(tx, refundId)),
        PaymentStatus.valueOf(locked.payment().getStatus()),
        true,
        null);
  }

  /** The payment after a refund SUCCEEDED: REFUNDED when full, else PARTIALLY_REFUNDED. */
  private static PaymentStatus movePayment(
      DSLContext tx, PaymentOrderRecord payment, boolean full) {
    PaymentStatus now = PaymentStatus.valueOf(payment.getStatus());
    PaymentTransition move =
        full ? PaymentTransition.REFUND_FULLY : PaymentTransition.REFUND_PARTIALLY;
    if (!full && now == move.to()) {
      return now; // a further partial refund: the payment stays PARTIALLY_REFUNDED
    }
    if (!PaymentTransitions.move(tx, payment.getPaymentId(), move, DSL.noCondition(), Map.of())) {
      throw new IllegalStateException(
          "payment " + payment.getPaymentId() + " is " + now + ", which " + move + " cannot move");
    }
    return move.to();
  }

  /**
   * The channel holds the refund and has not finished it (a submit answered PENDING, or a query of
   * an UNKNOWN refund found it in progress): REQUESTED or UNKNOWN becomes SUBMITTED ({@link
   * RefundTransition#SUBMIT}); any other state is answered as it stands. No payment change, no
   * event.
   *
   * @throws RefundRefused NOT_FOUND for no such refund
   */
  public RefundOutcome pending(String refundId) {
    return Transactions.run(dsl, cfg -> pending(cfg.dsl(), refundId));
  }

  /** As {@link #pending(String)} inside the caller's transaction {@code tx}. */
  RefundOutcome pending(DSLContext tx, String refundId) {
    Locked locked = lock(tx, refundId);
    RefundState state = RefundState.valueOf(locked.refund().getState());
    if (!RefundTransition.SUBMIT.startsFrom(state)) {
      return unchanged(locked);
    }
    move(tx, refundId, RefundTransition.SUBMIT, Map.of());
    return new RefundOutcome(
        RefundStore.toRow(reread(tx, refundId)),
        PaymentStatus.valueOf(locked.payment().getStatus()),
        true,
        null);
  }

  /** A refund's row and its payment's, both locked by {@link #lock}. */
  record Locked(PaymentOrderRecord payment, RefundRecord refund) {}

  /** Locks the refund's payment, then the refund; NOT_FOUND for no such refund. */
  static Locked lock(DSLContext tx, String refundId) {
    String paymentId =
        tx.select(REFUND.PAYMENT_ID)
            .from(REFUND)
            .where(REFUND.REFUND_ID.eq(refundId))
            .fetchOptional(REFUND.PAYMENT_ID)
            .orElseThrow(() -> new RefundRefused(Reason.NOT_FOUND, "no refund " + refundId));
    PaymentOrderRecord payment =
        tx.selectFrom(PAYMENT_ORDER)
            .where(PAYMENT_ORDER.PAYMENT_ID.eq(paymentId))
            .forUpdate()
            .fetchSingle();
    RefundRecord refund =
        tx.selectFrom(REFUND).where(REFUND.REFUND_ID.eq(refundId)).forUpdate().fetchSingle();
    return new Locked(payment, refund);
  }

  private static RefundOutcome unchanged(Locked locked) {
    return new RefundOutcome(
        RefundStore.toRow(locked.refund()),
        PaymentStatus.valueOf(locked.payment().getStatus()),
        false,
        null);
  }

  private static void requireNot(RefundState state, RefundState contradicting, String refundId) {
    if (state == contradicting) {
      throw new RefundRefused(
          Reason.OUTCOME_CONFLICT,
          "refund " + refundId + " is already " + state + "; the channel's report contradicts it");
    }
  }

  /**
   * Moves the refund along {@code transition} ({@code UPDATE refund ... WHERE state IN (from)}),
   * which must change its one row: the caller holds its lock.
   */
  static void move(
      DSLContext tx,
      String refundId,
      RefundTransition transition,
      Map<? extends Field<?>, ?> also) {
    int changed =
        tx.update(REFUND)
            .set(REFUND.STATE, transition.to().name())
            .set(REFUND.VERSION, REFUND.VERSION.plus(1))
            .set(REFUND.UPDATED_AT, SqlTime.now())
            .set(also)
            .where(REFUND.REFUND_ID.eq(refundId))
            .and(REFUND.STATE.in(transition.from().stream().map(Enum::name).toList()))
            .execute();
    if (changed != 1) {
      throw new IllegalStateException(
          changed + " rows moved for refund " + refundId + " along " + transition);
    }
  }

  /**
   * The payment's SUCCEEDED refunds of its own capture in minor units (read under the payment's
   * lock); refunds of another capture (V17) are not the purchase's.
   */
  private static long succeededMinor(DSLContext tx, String paymentId) {
    return tx
        .select(REFUND.AMOUNT_MINOR)
        .from(REFUND)
        .where(REFUND.PAYMENT_ID.eq(paymentId))
        .and(REFUND.CHANNEL_TXN_ID.isNull())
        .and(REFUND.STATE.eq(RefundState.SUCCEEDED.name()))
        .forUpdate()
        .fetch(REFUND.AMOUNT_MINOR)
        .stream()
        .mapToLong(Long::longValue)
        .sum();
  }

  private static RefundRecord reread(DSLContext tx, String refundId) {
    return tx.selectFrom(REFUND).where(REFUND.REFUND_ID.eq(refundId)).fetchSingle();
  }
}

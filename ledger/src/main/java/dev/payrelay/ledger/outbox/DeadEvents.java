package dev.payrelay.ledger.outbox;

import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;

import dev.payrelay.domain.event.OutboxStatus;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.db.Transactions;
import dev.payrelay.ledger.db.generated.tables.records.OutboxEventRecord;
import dev.payrelay.ledger.operator.OperatorAction;
import dev.payrelay.ledger.operator.OperatorActions;
import dev.payrelay.ledger.operator.OperatorAnswer;
import java.time.Duration;
import org.jooq.DSLContext;

/**
 * Operator controls for DEAD outbox events (DESIGN invariant 8): replay keeps the event id, so
 * consumers deduplicating by message id see the same event; discard closes it unpublished. Each is
 * one transaction with its {@code operator_action} row; a refused request writes only the audit. A
 * request with an action key acts at most once: a repeat gets the stored result, including the
 * event type and seq a workflow needs to publish a replayed event again.
 */
public final class DeadEvents {

  /** The {@code operator_action.target_type} of event operations. */
  public static final String TARGET = "outbox_event";

  /** A replayed row not SENT within this long is handed to Temporal again by the safety net. */
  private static final Duration REPLAY_CONFIRM_WITHIN = Duration.ofMinutes(10);

  private final DSLContext dsl;

  /** Operations over {@code dsl}. */
  public DeadEvents(DSLContext dsl) {
    this.dsl = dsl;
  }

  /**
   * DEAD → DISPATCHED, for the payment's workflow to publish again with the same id.
   *
   * @param paymentId the payment whose workflow asks; the event must be one of its own
   * @param asked the request; its target is the event id, its action e.g. {@code REPLAY_EVENT}
   */
  public EventOperationOutcome replay(String paymentId, OperatorAction asked) {
    return operate(paymentId, asked, OutboxStatus.DISPATCHED);
  }

  /** DEAD → DISCARDED: closed without publishing. Arguments as {@link #replay}. */
  public EventOperationOutcome discard(String paymentId, OperatorAction asked) {
    return operate(paymentId, asked, OutboxStatus.DISCARDED);
  }

  /** Audits an invalid request without an action key as REJECTED. */
  public EventOperationOutcome reject(
      String eventId, String operator, String reason, String operation, String why) {
    return reject(asked(null, eventId, operator, reason, operation), why);
  }

  /** Audits {@code asked} as REJECTED because {@code why}, once per action key. */
  public EventOperationOutcome reject(OperatorAction asked, String why) {
    return EventOperationOutcome.of(OperatorActions.once(dsl, asked, () -> refuse(asked, why)));
  }

  /**
   * Audits {@code asked} as {@link OperatorActions#REFUSED} because its signal carried no verified
   * identity ({@code why}), once per action key; the event is not touched.
   */
  public EventOperationOutcome refuseUnverified(OperatorAction asked, String why) {
    return EventOperationOutcome.of(
        OperatorActions.once(
            dsl,
            asked,
            () -> OperatorActions.recordRefused(dsl, asked, OperatorAnswer.rejected(why))));
  }

  /** The request on {@code eventId} as audited ({@code eventId} may be null when invalid). */
  public static OperatorAction asked(
      String key, String eventId, String operator, String reason, String operation) {
    return new OperatorAction(key, operator, operation, TARGET, String.valueOf(eventId), reason);
  }

  private EventOperationOutcome operate(
      String paymentId, OperatorAction asked, OutboxStatus target) {
    return EventOperationOutcome.of(
        OperatorActions.once(
            dsl,
            asked,
            () -> {
              try {
                return Transactions.run(dsl, cfg -> move(cfg.dsl(), paymentId, asked, target));
              } catch (Refused refused) {
                return refuse(asked, refused.getMessage());
              }
            }));
  }

  private OperatorAnswer refuse(OperatorAction asked, String why) {
    return OperatorActions.record(dsl, asked, OperatorAnswer.rejected(why));
  }

  private OperatorAnswer move(
      DSLContext tx, String paymentId, OperatorAction asked, OutboxStatus target) {
    String eventId = asked.targetId();
    OutboxEventRecord row =
        tx.selectFrom(OUTBOX_EVENT)
            .where(OUTBOX_EVENT.EVENT_ID.eq(eventId))
            .forUpdate()
            .fetchOptional()
            .orElseThrow(() -> new Refused("no outbox event " + eventId));
    if (!row.getAggregateId().equals(paymentId)) {
      throw new Refused("event " + eventId + " belongs to payment " + row.getAggregateId());
    }
    if (!OutboxStatus.DEAD.name().equals(row.getStatus())) {
      throw new Refused("event " + eventId + " is " + row.getStatus() + ", not DEAD");
    }
    int changed =
        tx.update(OUTBOX_EVENT)
            .set(OUTBOX_EVENT.STATUS, target.name())
            .set(
                OUTBOX_EVENT.DISPATCHED_AT,
                target == OutboxStatus.DISPATCHED ? SqlTime.now() : OUTBOX_EVENT.DISPATCHED_AT)
            .set(OUTBOX_EVENT.NEXT_ATTEMPT_AT, SqlTime.nowPlus(REPLAY_CONFIRM_WITHIN))
            .set(OUTBOX_EVENT.UPDATED_AT, SqlTime.now())
            .where(OUTBOX_EVENT.EVENT_ID.eq(eventId))
            .and(OUTBOX_EVENT.STATUS.eq(OutboxStatus.DEAD.name()))
            .execute();
    if (changed != 1) {
      throw new IllegalStateException("locked DEAD event " + eventId + " did not move");
    }
    String done =
        "DEAD -> "
            + target
            + " after "
            + row.getAttempts()
            + " attempt(s); last error: "
            + row.getLastError();
    return OperatorActions.record(
        tx, asked, OperatorAnswer.applied(done).withEvent(null, row.getEventType(), row.getSeq()));
  }

  /** A request that cannot apply; rolls back and is audited as REJECTED. */
  private static final class Refused extends RuntimeException {
    Refused(String message) {
      super(message);
    }
  }
}

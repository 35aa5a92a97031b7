package dev.payrelay.sql;

import static dev.payrelay.sql.generated.Tables.OUTBOX_EVENT;

import dev.payrelay.domain.event.OutboxStatus;
import dev.payrelay.sql.generated.tables.records.OutboxEventRecord;
import java.time.Duration;
import org.jooq.DSLContext;

/**
 * Operator controls for DEAD outbox events (DESIGN invariant 8): replay keeps the event id, so
 * consumers deduplicating by message id see the same event; discard closes it unpublished. Each is
 * one transaction with its {@code operator_action} row; a refused request writes only the audit.
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
   * @param operation the audited action name, e.g. {@code REPLAY_EVENT}
   */
  public EventOperationOutcome replay(
      String paymentId, String eventId, String operator, String reason, String operation) {
    return operate(paymentId, eventId, operator, reason, operation, OutboxStatus.DISPATCHED);
  }

  /** DEAD → DISCARDED: closed without publishing. */
  public EventOperationOutcome discard(
      String paymentId, String eventId, String operator, String reason, String operation) {
    return operate(paymentId, eventId, operator, reason, operation, OutboxStatus.DISCARDED);
  }

  /** Audits an invalid request as REJECTED. */
  public EventOperationOutcome reject(
      String eventId, String operator, String reason, String operation, String why) {
    long id =
        OperatorActions.record(
            dsl,
            operator,
            operation,
            TARGET,
            String.valueOf(eventId),
            reason,
            OperatorActions.REJECTED,
            why);
    return new EventOperationOutcome(false, id, why, null, 0);
  }

  private EventOperationOutcome operate(
      String paymentId,
      String eventId,
      String operator,
      String reason,
      String operation,
      OutboxStatus target) {
    try {
      return Transactions.run(
          dsl, cfg -> move(cfg.dsl(), paymentId, eventId, operator, reason, operation, target));
    } catch (Refused refused) {
      return reject(eventId, operator, reason, operation, refused.getMessage());
    }
  }

  private EventOperationOutcome move(
      DSLContext tx,
      String paymentId,
      String eventId,
      String operator,
      String reason,
      String operation,
      OutboxStatus target) {
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
    tx.update(OUTBOX_EVENT)
        .set(OUTBOX_EVENT.STATUS, target.name())
        .set(
            OUTBOX_EVENT.DISPATCHED_AT,
            target == OutboxStatus.DISPATCHED ? SqlTime.now() : OUTBOX_EVENT.DISPATCHED_AT)
        .set(OUTBOX_EVENT.NEXT_ATTEMPT_AT, SqlTime.nowPlus(REPLAY_CONFIRM_WITHIN))
        .set(OUTBOX_EVENT.UPDATED_AT, SqlTime.now())
        .where(OUTBOX_EVENT.EVENT_ID.eq(eventId))
        .execute();
    String done =
        "DEAD -> "
            + target
            + " after "
            + row.getAttempts()
            + " attempt(s); last error: "
            + row.getLastError();
    long id =
        OperatorActions.record(
            tx, operator, operation, TARGET, eventId, reason, OperatorActions.APPLIED, done);
    return new EventOperationOutcome(true, id, done, row.getEventType(), row.getSeq());
  }

  /** A request that cannot apply; rolls back and is audited as REJECTED. */
  private static final class Refused extends RuntimeException {
    Refused(String message) {
      super(message);
    }
  }
}

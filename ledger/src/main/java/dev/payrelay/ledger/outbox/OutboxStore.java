package dev.payrelay.ledger.outbox;

import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;

import dev.payrelay.domain.event.EventType;
import dev.payrelay.domain.event.OutboxStatus;
import dev.payrelay.ledger.db.RenderedQuery;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.db.Text;
import dev.payrelay.ledger.db.Transactions;
import dev.payrelay.ledger.db.generated.tables.records.OutboxEventRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.impl.DSL;

/**
 * Outbox claims, leases and write-backs (DESIGN invariant 5): a claim is a short transaction with
 * {@code SELECT ... FOR UPDATE SKIP LOCKED} that sets {@code lease_owner, lease_token,
 * lease_until}; the network call happens outside any transaction; every write-back matches the
 * lease token and checks its row count. All times come from the database clock.
 *
 * <p>A claim runs at READ COMMITTED ({@link Transactions#runReadCommitted}; issue 25 row 9). At
 * REPEATABLE READ its range scan's next-key locks made ingestion's outbox insert wait for the
 * claim's commit: ClaimIsolationTest, on MariaDB 10.11, saw it in 84 of 84 cases over eight runs
 * (an empty outbox, rows due in the past, rows due in the future, every status, a backlog larger
 * than the batch; each with a payment created and a payment confirmed), and in none of them at READ
 * COMMITTED.
 */
public final class OutboxStore {

  /** Every claim's first statement: due rows of one status, locked (rendered once). */
  private static final RenderedQuery LOCK_DUE =
      RenderedQuery.of(
          DSL.select(OUTBOX_EVENT.EVENT_ID)
              .from(OUTBOX_EVENT)
              .where(OUTBOX_EVENT.STATUS.eq(DSL.param("status", String.class)))
              .and(OUTBOX_EVENT.NEXT_ATTEMPT_AT.le(SqlTime.now()))
              // Exactly the claim index's order: InnoDB then reads (and locks) only the rows it
              // returns, so concurrent dispatchers skip each other's rows instead of all of them.
              .orderBy(OUTBOX_EVENT.NEXT_ATTEMPT_AT, OUTBOX_EVENT.SEQ)
              .limit(DSL.param("limit", Integer.class))
              .forUpdate()
              .skipLocked(),
          "status",
          "limit");

  // A payment's publish reads its event and marks it SENT: rendered once (RenderedQuery).
  private static final RenderedQuery FIND =
      RenderedQuery.of(
          DSL.selectFrom(OUTBOX_EVENT)
              .where(OUTBOX_EVENT.EVENT_ID.eq(DSL.param("eventId", String.class))),
          "eventId");

  private static final RenderedQuery MARK_SENT =
      RenderedQuery.of(
          DSL.update(OUTBOX_EVENT)
              .set(OUTBOX_EVENT.STATUS, OutboxStatus.SENT.name())
              .set(OUTBOX_EVENT.SENT_AT, SqlTime.now())
              .setNull(OUTBOX_EVENT.LEASE_UNTIL)
              .setNull(OUTBOX_EVENT.LAST_ERROR)
              .set(OUTBOX_EVENT.UPDATED_AT, SqlTime.now())
              .where(OUTBOX_EVENT.EVENT_ID.eq(DSL.param("eventId", String.class)))
              .and(unconfirmed()),
          "eventId");

  /** A claimed row is a re-dispatch when the safety net hands a DISPATCHED row over again. */
  private static final Field<Boolean> REDISPATCH =
      OUTBOX_EVENT.STATUS.eq(OutboxStatus.DISPATCHED.name());

  /** Only an exception's payload is read by a claim, for its summary in the workflow's view. */
  private static final Field<String> EXCEPTION_PAYLOAD =
      DSL.when(
          OUTBOX_EVENT.EVENT_TYPE.eq(EventType.PAYMENT_EXCEPTION_RECORDED.wireName()),
          OUTBOX_EVENT.PAYLOAD);

  private final DSLContext dsl;

  /** A store over {@code dsl}. */
  public OutboxStore(DSLContext dsl) {
    this.dsl = dsl;
  }

  /**
   * Leases up to {@code limit} due rows, earliest due first: PENDING rows whose next attempt is
   * due, then DISPATCHED rows whose broker confirm is overdue (the safety net: their workflow may
   * have been lost, e.g. with the embedded dev server; handing them over again is harmless because
   * the workflow dedupes by event id). A row's lease expiry is also its next due time, so rows of a
   * dispatcher that died are claimable again once the lease runs out.
   *
   * @param owner the claiming instance, for operators
   * @param limit the batch size
   * @param lease how long the claim holds
   * @return the claimed rows in outbox order, all carrying the same new lease token
   */
  public List<ClaimedEvent> claim(String owner, int limit, Duration lease) {
    String token = UUID.randomUUID().toString();
    return Transactions.runReadCommitted(
        dsl,
        cfg -> {
          DSLContext tx = cfg.dsl();
          List<String> ids = lockDue(tx, limit);
          if (ids.isEmpty()) {
            return List.of();
          }
          lease(tx, ids, owner, token, lease);
          return claimed(tx, ids);
        });
  }

  /** Locks up to {@code limit} due rows: PENDING ones first, then overdue DISPATCHED ones. */
  private static List<String> lockDue(DSLContext tx, int limit) {
    List<String> ids = new ArrayList<>(lockDue(tx, OutboxStatus.PENDING, limit));
    if (ids.size() < limit) {
      ids.addAll(lockDue(tx, OutboxStatus.DISPATCHED, limit - ids.size()));
    }
    return ids;
  }

  /** Writes the lease on locked rows; its expiry is also their next due time. */
  private static void lease(
      DSLContext tx, List<String> ids, String owner, String token, Duration lease) {
    tx.update(OUTBOX_EVENT)
        .set(OUTBOX_EVENT.LEASE_OWNER, owner)
        .set(OUTBOX_EVENT.LEASE_TOKEN, token)
        .set(OUTBOX_EVENT.LEASE_UNTIL, SqlTime.nowPlus(lease))
        .set(OUTBOX_EVENT.NEXT_ATTEMPT_AT, SqlTime.nowPlus(lease))
        .set(OUTBOX_EVENT.UPDATED_AT, SqlTime.now())
        .where(OUTBOX_EVENT.EVENT_ID.in(ids))
        .execute();
  }

  /** The leased rows with their payments' identity and deadline, in outbox order. */
  private static List<ClaimedEvent> claimed(DSLContext tx, List<String> ids) {
    return tx.select(
            OUTBOX_EVENT.EVENT_ID,
            OUTBOX_EVENT.SEQ,
            OUTBOX_EVENT.EVENT_TYPE,
            OUTBOX_EVENT.AGGREGATE_ID,
            PAYMENT_ORDER.TENANT_ID,
            PAYMENT_ORDER.ORDER_ID,
            PAYMENT_ORDER.CHANNEL,
            OUTBOX_EVENT.LEASE_TOKEN,
            OUTBOX_EVENT.ATTEMPTS,
            PAYMENT_ORDER.EXPIRES_AT,
            REDISPATCH,
            EXCEPTION_PAYLOAD,
            OUTBOX_EVENT.FACT_KEY)
        .from(OUTBOX_EVENT)
        .join(PAYMENT_ORDER)
        .on(PAYMENT_ORDER.PAYMENT_ID.eq(OUTBOX_EVENT.AGGREGATE_ID))
        .where(OUTBOX_EVENT.EVENT_ID.in(ids))
        .orderBy(OUTBOX_EVENT.SEQ)
        .fetch(OutboxStore::claimedEvent);
  }

  private static ClaimedEvent claimedEvent(Record r) {
    return new ClaimedEvent(
        r.get(OUTBOX_EVENT.EVENT_ID),
        r.get(OUTBOX_EVENT.SEQ),
        r.get(OUTBOX_EVENT.EVENT_TYPE),
        r.get(OUTBOX_EVENT.AGGREGATE_ID),
        r.get(PAYMENT_ORDER.TENANT_ID),
        r.get(PAYMENT_ORDER.ORDER_ID),
        r.get(PAYMENT_ORDER.CHANNEL),
        r.get(OUTBOX_EVENT.LEASE_TOKEN),
        r.get(OUTBOX_EVENT.ATTEMPTS),
        SqlTime.utc(r.get(PAYMENT_ORDER.EXPIRES_AT)),
        r.get(REDISPATCH),
        EventHandoff.summaryOf(r.get(OUTBOX_EVENT.EVENT_TYPE), r.get(EXCEPTION_PAYLOAD)),
        r.get(OUTBOX_EVENT.FACT_KEY));
  }

  /**
   * Takes back the claims {@code owner} holds: its un-SENT rows (PENDING under lease, or DISPATCHED
   * awaiting their publish) become due now with their lease cleared, so a restarted instance hands
   * them over again at once. Handing a row over twice is harmless (the workflow dedupes by event
   * id); a write-back by the old holder no longer matches the cleared token.
   *
   * @param owner the instance name its claims were written with
   * @return how many rows were taken back
   */
  public int releaseClaimsOf(String owner) {
    return dsl.update(OUTBOX_EVENT)
        .set(OUTBOX_EVENT.NEXT_ATTEMPT_AT, SqlTime.now())
        .setNull(OUTBOX_EVENT.LEASE_UNTIL)
        .setNull(OUTBOX_EVENT.LEASE_TOKEN)
        .set(OUTBOX_EVENT.UPDATED_AT, SqlTime.now())
        .where(unconfirmed())
        .and(OUTBOX_EVENT.LEASE_OWNER.eq(owner))
        .execute();
  }

  /** Rows a dispatcher may still write back: not yet confirmed by the broker, and not DEAD. */
  private static Condition unconfirmed() {
    return OUTBOX_EVENT.STATUS.in(OutboxStatus.PENDING.name(), OutboxStatus.DISPATCHED.name());
  }

  private static List<String> lockDue(DSLContext tx, OutboxStatus status, int limit) {
    return LOCK_DUE.fetch(tx, status.name(), limit).getValues(OUTBOX_EVENT.EVENT_ID);
  }

  /**
   * Marks claimed rows DISPATCHED after their hand-off, in one statement: only rows whose lease
   * token still matches and that are not yet SENT or DEAD. Each becomes due again for the safety
   * net after {@code confirmWithin} unless its publish marks it SENT first.
   *
   * @param eventIds rows of one claim (they share its lease token)
   * @return the ids marked; the others moved on without us (the lease expired and someone else
   *     claimed the row, or the publish already marked it SENT), both harmless
   */
  public Set<String> markDispatched(
      Collection<String> eventIds, String leaseToken, Duration confirmWithin) {
    if (eventIds.isEmpty()) {
      return Set.of();
    }
    Condition ours =
        OUTBOX_EVENT.EVENT_ID.in(eventIds).and(OUTBOX_EVENT.LEASE_TOKEN.eq(leaseToken));
    return Transactions.run(
        dsl,
        cfg -> {
          DSLContext tx = cfg.dsl();
          int marked =
              tx.update(OUTBOX_EVENT)
                  .set(OUTBOX_EVENT.STATUS, OutboxStatus.DISPATCHED.name())
                  .set(OUTBOX_EVENT.DISPATCHED_AT, SqlTime.now())
                  .set(OUTBOX_EVENT.NEXT_ATTEMPT_AT, SqlTime.nowPlus(confirmWithin))
                  .setNull(OUTBOX_EVENT.LEASE_UNTIL)
                  .set(OUTBOX_EVENT.UPDATED_AT, SqlTime.now())
                  .where(ours)
                  .and(unconfirmed())
                  .execute();
          if (marked == eventIds.size()) {
            return Set.copyOf(eventIds);
          }
          // Which ones: the rows just marked hold our token and DISPATCHED, and their locks keep
          // a publish from marking them SENT until this transaction ends.
          return Set.copyOf(
              tx.select(OUTBOX_EVENT.EVENT_ID)
                  .from(OUTBOX_EVENT)
                  .where(ours)
                  .and(OUTBOX_EVENT.STATUS.eq(OutboxStatus.DISPATCHED.name()))
                  .fetch(OUTBOX_EVENT.EVENT_ID));
        });
  }

  /**
   * Puts a claimed row back after a failed hand-off (its status unchanged), due again after
   * exponential backoff with jitter computed in SQL: {@code min(max, initial * 2^attempts) * [0.5,
   * 1.0)}.
   *
   * @return false when the lease token no longer matches (someone else owns the row now)
   */
  public boolean releaseForRetry(
      String eventId, String leaseToken, String error, Duration initial, Duration max) {
    Field<Long> delayMicros =
        DSL.field(
            "FLOOR(LEAST({0}, {1} * POW(2, LEAST({2}, 30))) * (0.5 + RAND() * 0.5))",
            Long.class,
            DSL.val(SqlTime.micros(max)),
            DSL.val(SqlTime.micros(initial)),
            OUTBOX_EVENT.ATTEMPTS);
    return dsl.update(OUTBOX_EVENT)
            .set(OUTBOX_EVENT.NEXT_ATTEMPT_AT, SqlTime.nowPlusMicros(delayMicros))
            .set(OUTBOX_EVENT.ATTEMPTS, OUTBOX_EVENT.ATTEMPTS.plus(1))
            .set(OUTBOX_EVENT.LAST_ERROR, Text.truncate(error))
            .setNull(OUTBOX_EVENT.LEASE_UNTIL)
            .set(OUTBOX_EVENT.UPDATED_AT, SqlTime.now())
            .where(OUTBOX_EVENT.EVENT_ID.eq(eventId))
            .and(OUTBOX_EVENT.LEASE_TOKEN.eq(leaseToken))
            .and(unconfirmed())
            .execute()
        == 1;
  }

  /**
   * Which of these events still wait for their broker confirm (PENDING or DISPATCHED): the
   * dispatcher's hand-off window ({@code HandoffWindow}) frees the slot of every other one, whose
   * workflow has handled it (SENT), given it up (DEAD, DISCARDED) or whose row was purged.
   *
   * @param eventIds outbox event ids; empty reads nothing
   * @return the subset still unconfirmed
   */
  public Set<String> unconfirmedOf(Collection<String> eventIds) {
    if (eventIds.isEmpty()) {
      return Set.of();
    }
    return Set.copyOf(
        dsl.select(OUTBOX_EVENT.EVENT_ID)
            .from(OUTBOX_EVENT)
            .where(OUTBOX_EVENT.EVENT_ID.in(eventIds))
            .and(unconfirmed())
            .fetch(OUTBOX_EVENT.EVENT_ID));
  }

  /** Reads one row. */
  public Optional<OutboxRow> find(String eventId) {
    return FIND.fetchFirst(dsl, eventId).map(r -> toRow(r.into(OUTBOX_EVENT)));
  }

  /**
   * Lists rows for operators, oldest first.
   *
   * @param status the delivery state to list, e.g. DEAD (or DISPATCHED/PENDING for stuck rows)
   * @param eventType a wire name to narrow to, or null for all
   * @param minAge only rows written at least this long ago (database clock); zero for all
   * @param limit at most this many rows
   */
  public List<OutboxListing> list(
      OutboxStatus status, String eventType, Duration minAge, int limit) {
    Field<Long> age = secondsSince(OUTBOX_EVENT.CREATED_AT);
    Field<Long> idle = secondsSince(OUTBOX_EVENT.UPDATED_AT);
    // By age since written, not since last touched: retries and re-dispatches touch a row that is
    // still undelivered, and on-call wants to see it.
    Condition condition = OUTBOX_EVENT.STATUS.eq(status.name()).and(age.ge(minAge.toSeconds()));
    if (eventType != null) {
      condition = condition.and(OUTBOX_EVENT.EVENT_TYPE.eq(eventType));
    }
    return dsl.select(
            OUTBOX_EVENT.EVENT_ID,
            OUTBOX_EVENT.AGGREGATE_ID,
            OUTBOX_EVENT.EVENT_TYPE,
            OUTBOX_EVENT.STATUS,
            OUTBOX_EVENT.ATTEMPTS,
            OUTBOX_EVENT.LAST_ERROR,
            OUTBOX_EVENT.CREATED_AT,
            age,
            idle)
        .from(OUTBOX_EVENT)
        .where(condition)
        .orderBy(OUTBOX_EVENT.SEQ)
        .limit(limit)
        .fetch(
            r ->
                new OutboxListing(
                    r.value1(),
                    r.value2(),
                    r.value3(),
                    r.value4(),
                    r.value5(),
                    r.value6(),
                    SqlTime.utc(r.value7()),
                    r.value8(),
                    r.value9()));
  }

  private static Field<Long> secondsSince(Field<java.time.LocalDateTime> time) {
    return DSL.field("TIMESTAMPDIFF(SECOND, {0}, NOW(6))", Long.class, time);
  }

  /** A payment's events in outbox order. */
  public List<OutboxRow> forPayment(String paymentId) {
    return dsl.selectFrom(OUTBOX_EVENT)
        .where(OUTBOX_EVENT.AGGREGATE_ID.eq(paymentId))
        .orderBy(OUTBOX_EVENT.SEQ)
        .fetch(OutboxStore::toRow);
  }

  /**
   * Marks a row SENT after the broker's confirm. Idempotent.
   *
   * @return true if this call moved it to SENT; false if it was already SENT
   * @throws IllegalStateException if the row does not exist or is DEAD
   */
  public boolean markSent(String eventId) {
    if (MARK_SENT.execute(dsl, eventId) == 1) {
      return true;
    }
    OutboxStatus now = find(eventId).map(OutboxRow::status).orElse(null);
    if (now == OutboxStatus.SENT) {
      return false;
    }
    throw new IllegalStateException(
        "outbox event " + eventId + " cannot be marked SENT from " + now);
  }

  /** Counts a failed publish attempt and keeps its error; the row stays un-SENT. */
  public void recordPublishFailure(String eventId, String error) {
    dsl.update(OUTBOX_EVENT)
        .set(OUTBOX_EVENT.ATTEMPTS, OUTBOX_EVENT.ATTEMPTS.plus(1))
        .set(OUTBOX_EVENT.LAST_ERROR, Text.truncate(error))
        .set(OUTBOX_EVENT.UPDATED_AT, SqlTime.now())
        .where(OUTBOX_EVENT.EVENT_ID.eq(eventId))
        .and(OUTBOX_EVENT.STATUS.ne(OutboxStatus.SENT.name()))
        .execute();
  }

  /**
   * Marks an un-SENT row DEAD with its last error, for an operator to replay.
   *
   * @return false if the row was already SENT (nothing to do) or does not exist
   */
  public boolean markDead(String eventId, String error) {
    return dsl.update(OUTBOX_EVENT)
            .set(OUTBOX_EVENT.STATUS, OutboxStatus.DEAD.name())
            .set(OUTBOX_EVENT.LAST_ERROR, Text.truncate(error))
            .setNull(OUTBOX_EVENT.LEASE_UNTIL)
            .set(OUTBOX_EVENT.UPDATED_AT, SqlTime.now())
            .where(OUTBOX_EVENT.EVENT_ID.eq(eventId))
            .and(OUTBOX_EVENT.STATUS.ne(OutboxStatus.SENT.name()))
            .execute()
        == 1;
  }

  private static OutboxRow toRow(OutboxEventRecord r) {
    return new OutboxRow(
        r.getEventId(),
        r.getSeq(),
        r.getPaymentSeq(),
        r.getAggregateId(),
        r.getEventType(),
        r.getRoutingKey(),
        r.getPayloadVersion(),
        r.getPayload(),
        OutboxStatus.valueOf(r.getStatus()),
        r.getAttempts(),
        r.getLastError(),
        SqlTime.utc(r.getCreatedAt()),
        SqlTime.utc(r.getSentAt()),
        r.getFactKey());
  }
}

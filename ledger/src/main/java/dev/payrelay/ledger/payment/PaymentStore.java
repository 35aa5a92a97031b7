package dev.payrelay.ledger.payment;

import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_EXCEPTION;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;
import static dev.payrelay.ledger.db.generated.Tables.PURCHASE_ITEM;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.PaymentIds;
import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.domain.event.EventType;
import dev.payrelay.domain.event.OutboxStatus;
import dev.payrelay.domain.event.PaymentCreated;
import dev.payrelay.ledger.db.IdempotencyConflictException;
import dev.payrelay.ledger.db.PageCursor;
import dev.payrelay.ledger.db.RenderedQuery;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.db.Transactions;
import dev.payrelay.ledger.db.UniqueKeys;
import dev.payrelay.ledger.db.generated.tables.records.PaymentOrderRecord;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.outbox.WaitingEvents;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Result;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;

/** Creates and reads payment attempts. */
public final class PaymentStore {

  private static final Field<Integer> STANDING_OPEN_EXCEPTIONS =
      DSL.field(
              DSL.selectCount()
                  .from(PAYMENT_EXCEPTION)
                  .where(PAYMENT_EXCEPTION.PAYMENT_ID.eq(DSL.param("paymentId", String.class)))
                  .and(PAYMENT_EXCEPTION.STATUS.eq(PaymentExceptions.OPEN)))
          .as("open_exceptions");
  private static final Field<Integer> STANDING_DEAD_EVENTS =
      DSL.field(
              DSL.selectCount()
                  .from(OUTBOX_EVENT)
                  .where(deadEventOf(DSL.param("paymentId", String.class))))
          .as("dead_events");

  /** A payment's status, deadline and open-cause counts (every workflow run's first read). */
  private static final RenderedQuery STANDING =
      RenderedQuery.of(
          DSL.select(
                  PAYMENT_ORDER.STATUS,
                  PAYMENT_ORDER.EXPIRES_AT,
                  STANDING_OPEN_EXCEPTIONS,
                  STANDING_DEAD_EVENTS)
              .from(PAYMENT_ORDER)
              .where(PAYMENT_ORDER.PAYMENT_ID.eq(DSL.param("paymentId", String.class))),
          "paymentId");

  /** A payment and its course ids, one row per course (a hot path: rendered once). */
  private static final RenderedQuery FIND =
      RenderedQuery.of(
          DSL.select(PAYMENT_ORDER.fields())
              .select(PURCHASE_ITEM.COURSE_ID)
              .from(PAYMENT_ORDER)
              .leftJoin(PURCHASE_ITEM)
              .on(PURCHASE_ITEM.PAYMENT_ID.eq(PAYMENT_ORDER.PAYMENT_ID))
              .where(PAYMENT_ORDER.PAYMENT_ID.eq(DSL.param("paymentId", String.class)))
              .orderBy(PURCHASE_ITEM.COURSE_ID),
          "paymentId");

  // Creating a payment (the create API's statements): rendered once.
  private static final RenderedQuery INSERT =
      RenderedQuery.of(
          DSL.insertInto(PAYMENT_ORDER)
              .set(PAYMENT_ORDER.PAYMENT_ID, DSL.param("paymentId", String.class))
              .set(PAYMENT_ORDER.TENANT_ID, DSL.param("tenantId", String.class))
              .set(PAYMENT_ORDER.ORDER_ID, DSL.param("orderId", String.class))
              .set(PAYMENT_ORDER.USER_ID, DSL.param("userId", String.class))
              .set(PAYMENT_ORDER.CHANNEL, DSL.param("channel", String.class))
              .set(PAYMENT_ORDER.MERCHANT_ID, DSL.param("merchantId", String.class))
              .set(PAYMENT_ORDER.AMOUNT_MINOR, DSL.param("amountMinor", Long.class))
              .set(PAYMENT_ORDER.CURRENCY, DSL.param("currency", String.class))
              .set(PAYMENT_ORDER.STATUS, PaymentStatus.PENDING.name())
              .set(PAYMENT_ORDER.IDEMPOTENCY_KEY, DSL.param("idempotencyKey", String.class))
              .set(PAYMENT_ORDER.REQUEST_HASH, DSL.param("requestHash", String.class))
              .set(
                  PAYMENT_ORDER.EXPIRES_AT,
                  SqlTime.nowPlusMicros(DSL.param("timeToLiveMicros", Long.class)))
              .set(PAYMENT_ORDER.CREATED_AT, SqlTime.now())
              .set(PAYMENT_ORDER.UPDATED_AT, SqlTime.now()),
          "paymentId",
          "tenantId",
          "orderId",
          "userId",
          "channel",
          "merchantId",
          "amountMinor",
          "currency",
          "idempotencyKey",
          "requestHash",
          "timeToLiveMicros");

  private static final RenderedQuery INSERT_ITEM =
      RenderedQuery.of(
          DSL.insertInto(PURCHASE_ITEM, PURCHASE_ITEM.PAYMENT_ID, PURCHASE_ITEM.COURSE_ID)
              .values(DSL.param("paymentId", String.class), DSL.param("courseId", String.class)),
          "paymentId",
          "courseId");

  private static final RenderedQuery BY_IDEMPOTENCY_KEY =
      RenderedQuery.of(
          DSL.selectFrom(PAYMENT_ORDER)
              .where(PAYMENT_ORDER.TENANT_ID.eq(DSL.param("tenantId", String.class)))
              .and(PAYMENT_ORDER.IDEMPOTENCY_KEY.eq(DSL.param("idempotencyKey", String.class))),
          "tenantId",
          "idempotencyKey");

  private static final String IDEMPOTENCY_KEY = "uk_payment_idempotency";

  private final DSLContext dsl;
  private final OutboxWriter outbox;

  /** A store over {@code dsl}, announcing creations through {@code outbox}. */
  public PaymentStore(DSLContext dsl, OutboxWriter outbox) {
    this.dsl = dsl;
    this.outbox = outbox;
  }

  /**
   * Creates a PENDING payment, its purchase items and its {@code PaymentCreated} outbox event in
   * one transaction. With an idempotency key, a retry returns the payment the first request made.
   *
   * @throws IdempotencyConflictException if the key was used with a different request hash
   */
  public CreatedPayment create(NewPayment request) {
    if (request.idempotencyKey() != null) {
      Optional<CreatedPayment> earlier = findByIdempotencyKey(request);
      if (earlier.isPresent()) {
        return earlier.get();
      }
    }
    String paymentId = PaymentIds.mint();
    try {
      Transactions.run(
          dsl,
          cfg -> {
            insert(cfg.dsl(), paymentId, request);
            return null;
          });
    } catch (DataAccessException e) {
      if (request.idempotencyKey() != null && UniqueKeys.isViolationOf(e, IDEMPOTENCY_KEY)) {
        return findByIdempotencyKey(request).orElseThrow(() -> e);
      }
      throw e;
    }
    return new CreatedPayment(find(paymentId).orElseThrow(), true);
  }

  /**
   * PENDING payments whose deadline passed more than {@code grace} ago by the database clock, in
   * {@code (expires_at, payment_id)} order after {@code after}: their workflow should have closed
   * and expired them, so it may be gone. Paging by cursor lets a sweep reach every overdue payment,
   * not only the oldest {@code limit} ones again and again. A payment whose own events still wait
   * in the outbox ({@link WaitingEvents}) is the dispatcher's to hand over, not the sweep's.
   *
   * @param after where the previous page ended (null: from the oldest)
   */
  public List<PaymentRow> overdue(Duration grace, PageCursor after, int limit) {
    Condition page = DSL.noCondition();
    if (after != null) {
      Field<LocalDateTime> at = SqlTime.at(after.at());
      page =
          PAYMENT_ORDER
              .EXPIRES_AT
              .gt(at)
              .or(PAYMENT_ORDER.EXPIRES_AT.eq(at).and(PAYMENT_ORDER.PAYMENT_ID.gt(after.id())));
    }
    return dsl.selectFrom(PAYMENT_ORDER)
        .where(PAYMENT_ORDER.STATUS.eq(PaymentStatus.PENDING.name()))
        .and(PAYMENT_ORDER.EXPIRES_AT.lt(SqlTime.nowPlus(grace.negated())))
        .and(WaitingEvents.noneFor(PAYMENT_ORDER.PAYMENT_ID))
        .and(page)
        .orderBy(PAYMENT_ORDER.EXPIRES_AT, PAYMENT_ORDER.PAYMENT_ID)
        .limit(limit)
        .fetch(r -> toRow(r, courseIds(dsl, r.getPaymentId())));
  }

  /**
   * What the ledger says about a payment now: status, deadline, open exceptions, DEAD events. Empty
   * when there is no such payment. One round trip while the payment has no DEAD event (a workflow
   * run reads this before it acts, so it is on every payment's path); a second reads the DEAD
   * events' ids when there are some.
   */
  public Optional<PaymentStanding> standing(String paymentId) {
    return STANDING
        .fetchFirst(dsl, paymentId)
        .map(
            r ->
                new PaymentStanding(
                    PaymentStatus.valueOf(r.get(PAYMENT_ORDER.STATUS)),
                    SqlTime.utc(r.get(PAYMENT_ORDER.EXPIRES_AT)),
                    r.get(STANDING_OPEN_EXCEPTIONS),
                    r.get(STANDING_DEAD_EVENTS) == 0
                        ? List.of()
                        : dsl.select(OUTBOX_EVENT.EVENT_ID)
                            .from(OUTBOX_EVENT)
                            .where(deadEventOf(paymentId))
                            .orderBy(OUTBOX_EVENT.SEQ)
                            .fetch(OUTBOX_EVENT.EVENT_ID)));
  }

  private static Condition deadEventOf(Field<String> paymentId) {
    return OUTBOX_EVENT
        .AGGREGATE_ID
        .eq(paymentId)
        .and(OUTBOX_EVENT.STATUS.eq(OutboxStatus.DEAD.name()));
  }

  private static Condition deadEventOf(String paymentId) {
    return deadEventOf(DSL.val(paymentId));
  }

  /** Reads a payment with its course ids, in one round trip. */
  public Optional<PaymentRow> find(String paymentId) {
    Result<Record> rows = FIND.fetch(dsl, paymentId);
    if (rows.isEmpty()) {
      return Optional.empty();
    }
    List<String> courseIds =
        rows.stream().map(r -> r.get(PURCHASE_ITEM.COURSE_ID)).filter(Objects::nonNull).toList();
    return Optional.of(toRow(rows.getFirst().into(PAYMENT_ORDER), courseIds));
  }

  private Optional<CreatedPayment> findByIdempotencyKey(NewPayment request) {
    Optional<Record> found =
        BY_IDEMPOTENCY_KEY.fetchFirst(dsl, request.tenantId(), request.idempotencyKey());
    if (found.isEmpty()) {
      return Optional.empty();
    }
    PaymentOrderRecord r = found.get().into(PAYMENT_ORDER);
    if (!r.getRequestHash().equals(request.requestHash())) {
      throw new IdempotencyConflictException(request.idempotencyKey(), r.getPaymentId());
    }
    return Optional.of(new CreatedPayment(toRow(r, courseIds(dsl, r.getPaymentId())), false));
  }

  private void insert(DSLContext tx, String paymentId, NewPayment p) {
    INSERT.execute(
        tx,
        paymentId,
        p.tenantId(),
        p.orderId(),
        p.userId(),
        p.channel(),
        p.merchantId(),
        p.amount().minorUnits(),
        p.amount().currencyCode(),
        p.idempotencyKey(),
        p.requestHash(),
        SqlTime.micros(p.timeToLive()));
    for (String courseId : p.courseIds()) {
      INSERT_ITEM.execute(tx, paymentId, courseId);
    }
    PaymentRow row = toRow(FIND.fetch(tx, paymentId).getFirst().into(PAYMENT_ORDER), p.courseIds());
    outbox.appendPaymentEvent(
        tx, EventType.PAYMENT_CREATED, paymentId, createdPayload(row), PaymentCreated.VERSION);
  }

  private static PaymentCreated createdPayload(PaymentRow row) {
    return new PaymentCreated(
        row.paymentId(),
        row.tenantId(),
        row.orderId(),
        row.userId(),
        row.channel(),
        row.amount().minorUnits(),
        row.amount().currencyCode(),
        row.courseIds(),
        row.expiresAt().toString());
  }

  public static List<String> courseIds(DSLContext dsl, String paymentId) {
    return dsl.select(PURCHASE_ITEM.COURSE_ID)
        .from(PURCHASE_ITEM)
        .where(PURCHASE_ITEM.PAYMENT_ID.eq(paymentId))
        .orderBy(PURCHASE_ITEM.COURSE_ID)
        .fetch(PURCHASE_ITEM.COURSE_ID);
  }

  public static PaymentRow toRow(PaymentOrderRecord r, List<String> courseIds) {
    return new PaymentRow(
        r.getPaymentId(),
        r.getTenantId(),
        r.getOrderId(),
        r.getUserId(),
        r.getChannel(),
        r.getMerchantId(),
        Money.ofMinor(r.getAmountMinor(), r.getCurrency()),
        PaymentStatus.valueOf(r.getStatus()),
        r.getChannelTxnId(),
        SqlTime.utc(r.getPaidAt()),
        SqlTime.utc(r.getExpiresAt()),
        SqlTime.utc(r.getCreatedAt()),
        List.copyOf(courseIds));
  }
}

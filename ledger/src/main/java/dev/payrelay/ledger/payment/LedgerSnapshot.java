package dev.payrelay.ledger.payment;

import static dev.payrelay.ledger.db.generated.Tables.ENTITLEMENT;
import static dev.payrelay.ledger.db.generated.Tables.NOTIFICATION;
import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_EXCEPTION;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;
import static dev.payrelay.ledger.db.generated.Tables.PURCHASE_ITEM;

import dev.payrelay.ledger.outbox.OutboxWriter;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.jooq.DSLContext;
import org.jooq.Records;

/**
 * Every payment of a database with what followed it — purchased courses, granted entitlements,
 * outbox events, recorded exceptions and the {@code notifications} consumer's notifications — read
 * whole, for a soak's own counts over a database it created (thousands of rows, not a production
 * table scan). Each table is read in its own statement, so a snapshot taken while payrelay runs is
 * not one instant; callers compare snapshots taken after the system has come to rest.
 *
 * @param payments every payment row
 * @param grants every entitlement row
 * @param events every outbox row (SENT rows purged by retention are gone)
 * @param exceptions every recorded payment exception, open or resolved
 * @param notifications every notification row ({@link Notifications})
 */
public record LedgerSnapshot(
    List<Payment> payments,
    List<Grant> grants,
    List<Event> events,
    List<Recorded> exceptions,
    List<Notification> notifications) {

  /**
   * A payment.
   *
   * @param courses the courses it buys ({@code purchase_item})
   */
  public record Payment(
      String paymentId, String orderId, String userId, String status, Set<String> courses) {}

  /** An entitlement row: {@code purchaseId} is the payment id. */
  public record Grant(String purchaseId, String userId, String courseId) {}

  /**
   * An outbox row.
   *
   * @param seq the outbox write order ({@code seq}, global AUTO_INCREMENT; the AMQP header {@code
   *     outbox_seq})
   * @param paymentSeq its number within its payment ({@code payment_seq}: 1 for PaymentCreated,
   *     then 2, 3, … in commit order; the AMQP header of the same name)
   */
  public record Event(
      String eventId,
      String paymentId,
      String eventType,
      long seq,
      int paymentSeq,
      String status,
      String lastError) {}

  /** A recorded payment exception. */
  public record Recorded(String paymentId, String kind, String status) {}

  /** A notification row: {@code eventId} is the event that asked for it. */
  public record Notification(String paymentId, String userId, String template, String eventId) {}

  /** Copies the lists. */
  public LedgerSnapshot {
    payments = List.copyOf(payments);
    grants = List.copyOf(grants);
    events = List.copyOf(events);
    exceptions = List.copyOf(exceptions);
    notifications = List.copyOf(notifications);
  }

  /** Reads every row of the six tables, one statement each. */
  public static LedgerSnapshot read(DSLContext dsl) {
    return new LedgerSnapshot(
        payments(dsl),
        dsl.select(ENTITLEMENT.PURCHASE_ID, ENTITLEMENT.USER_ID, ENTITLEMENT.COURSE_ID)
            .from(ENTITLEMENT)
            .fetch(Records.mapping(Grant::new)),
        dsl.select(
                OUTBOX_EVENT.EVENT_ID,
                OUTBOX_EVENT.AGGREGATE_ID,
                OUTBOX_EVENT.EVENT_TYPE,
                OUTBOX_EVENT.SEQ,
                OUTBOX_EVENT.PAYMENT_SEQ,
                OUTBOX_EVENT.STATUS,
                OUTBOX_EVENT.LAST_ERROR)
            .from(OUTBOX_EVENT)
            .where(OUTBOX_EVENT.AGGREGATE_TYPE.eq(OutboxWriter.PAYMENT_AGGREGATE))
            .fetch(Records.mapping(Event::new)),
        dsl.select(PAYMENT_EXCEPTION.PAYMENT_ID, PAYMENT_EXCEPTION.KIND, PAYMENT_EXCEPTION.STATUS)
            .from(PAYMENT_EXCEPTION)
            .fetch(Records.mapping(Recorded::new)),
        dsl.select(
                NOTIFICATION.PAYMENT_ID,
                NOTIFICATION.USER_ID,
                NOTIFICATION.TEMPLATE,
                NOTIFICATION.EVENT_ID)
            .from(NOTIFICATION)
            .fetch(Records.mapping(Notification::new)));
  }

  /** Every payment with the courses it buys ({@code purchase_item}, read first). */
  private static List<Payment> payments(DSLContext dsl) {
    Map<String, Set<String>> courses =
        dsl.select(PURCHASE_ITEM.PAYMENT_ID, PURCHASE_ITEM.COURSE_ID).from(PURCHASE_ITEM).stream()
            .collect(
                Collectors.groupingBy(
                    r -> r.value1(), Collectors.mapping(r -> r.value2(), Collectors.toSet())));
    return dsl.select(
            PAYMENT_ORDER.PAYMENT_ID,
            PAYMENT_ORDER.ORDER_ID,
            PAYMENT_ORDER.USER_ID,
            PAYMENT_ORDER.STATUS)
        .from(PAYMENT_ORDER)
        .fetch(
            r ->
                new Payment(
                    r.value1(),
                    r.value2(),
                    r.value3(),
                    r.value4(),
                    courses.getOrDefault(r.value1(), Set.of())));
  }
}

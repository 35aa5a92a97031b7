package dev.payrelay.ledger.refund;

import static dev.payrelay.ledger.db.generated.Tables.CONSUMER_INBOX;
import static dev.payrelay.ledger.db.generated.Tables.ENTITLEMENT;
import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;
import static dev.payrelay.ledger.db.generated.Tables.REFUND;

import dev.payrelay.domain.event.EventType;
import dev.payrelay.ledger.outbox.OutboxWriter;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.jooq.DSLContext;
import org.jooq.Records;

/**
 * Every refund of a database with what must follow it — the refunded payments' captured amounts,
 * their {@code PaymentRefunded} outbox rows, the purchases' grants with their revocations, and the
 * events one consumer committed — read whole, for a soak's own refund counts over a database it
 * created (hundreds of rows, not a production table scan). The refund-side companion of {@link
 * dev.payrelay.ledger.payment.LedgerSnapshot}; like it, each table is read in its own statement, so
 * compare snapshots taken once the system is at rest.
 *
 * @param refunds every refund row
 * @param payments every payment that has a refund, by payment id
 * @param refundedEvents every {@code PaymentRefunded} outbox row (SENT rows purged by retention are
 *     gone)
 * @param grants every entitlement row of a payment that has a refund
 * @param consumed the event ids the consumer named at {@link #read} committed in its inbox
 */
public record RefundSnapshot(
    List<Refund> refunds,
    Map<String, Payment> payments,
    List<RefundedEvent> refundedEvents,
    List<Grant> grants,
    Set<String> consumed) {

  /**
   * A refund row.
   *
   * @param idempotencyKey the {@code Idempotency-Key} its request came with
   * @param amountMinor its amount in the payment's currency's ISO 4217 minor units
   * @param state a {@link dev.payrelay.domain.RefundState} name
   * @param channelRefundId the channel's id of the refund, null until the channel named it
   */
  public record Refund(
      String refundId,
      String refundNo,
      String paymentId,
      String idempotencyKey,
      long amountMinor,
      String state,
      String channelRefundId) {}

  /**
   * A refunded payment.
   *
   * @param status its {@link dev.payrelay.domain.PaymentStatus} name
   * @param capturedMinor what the channel captured (minor units), null if it never recorded one
   */
  public record Payment(String paymentId, String status, Long capturedMinor) {}

  /** A {@code PaymentRefunded} outbox row: {@code refundId} is its fact key. */
  public record RefundedEvent(String eventId, String paymentId, String refundId) {}

  /**
   * An entitlement row.
   *
   * @param revoked whether {@code revoked_at} is set
   * @param revokedByRefund the refund that revoked it, null while it is live
   */
  public record Grant(
      String purchaseId, String courseId, boolean revoked, String revokedByRefund) {}

  /** Copies the collections. */
  public RefundSnapshot {
    refunds = List.copyOf(refunds);
    payments = Map.copyOf(payments);
    refundedEvents = List.copyOf(refundedEvents);
    grants = List.copyOf(grants);
    consumed = Set.copyOf(consumed);
  }

  /**
   * Reads the five tables, one statement each.
   *
   * @param consumer the consumer whose inbox is read, e.g. {@code entitlements}
   */
  public static RefundSnapshot read(DSLContext dsl, String consumer) {
    List<Refund> refunds =
        dsl.select(
                REFUND.REFUND_ID,
                REFUND.REFUND_NO,
                REFUND.PAYMENT_ID,
                REFUND.IDEMPOTENCY_KEY,
                REFUND.AMOUNT_MINOR,
                REFUND.STATE,
                REFUND.CHANNEL_REFUND_ID)
            .from(REFUND)
            .fetch(Records.mapping(Refund::new));
    Map<String, Payment> payments =
        dsl
            .select(
                PAYMENT_ORDER.PAYMENT_ID, PAYMENT_ORDER.STATUS, PAYMENT_ORDER.CAPTURED_AMOUNT_MINOR)
            .from(PAYMENT_ORDER)
            .whereExists(
                dsl.selectOne().from(REFUND).where(REFUND.PAYMENT_ID.eq(PAYMENT_ORDER.PAYMENT_ID)))
            .fetch(Records.mapping(Payment::new))
            .stream()
            .collect(Collectors.toMap(Payment::paymentId, p -> p));
    return new RefundSnapshot(
        refunds,
        payments,
        dsl.select(OUTBOX_EVENT.EVENT_ID, OUTBOX_EVENT.AGGREGATE_ID, OUTBOX_EVENT.FACT_KEY)
            .from(OUTBOX_EVENT)
            .where(OUTBOX_EVENT.AGGREGATE_TYPE.eq(OutboxWriter.PAYMENT_AGGREGATE))
            .and(OUTBOX_EVENT.EVENT_TYPE.eq(EventType.PAYMENT_REFUNDED.wireName()))
            .fetch(Records.mapping(RefundedEvent::new)),
        dsl.select(
                ENTITLEMENT.PURCHASE_ID,
                ENTITLEMENT.COURSE_ID,
                ENTITLEMENT.REVOKED_AT.isNotNull(),
                ENTITLEMENT.REVOKED_BY_REFUND)
            .from(ENTITLEMENT)
            .whereExists(
                dsl.selectOne().from(REFUND).where(REFUND.PAYMENT_ID.eq(ENTITLEMENT.PURCHASE_ID)))
            .fetch(Records.mapping(Grant::new)),
        Set.copyOf(
            dsl.select(CONSUMER_INBOX.EVENT_ID)
                .from(CONSUMER_INBOX)
                .where(CONSUMER_INBOX.CONSUMER_NAME.eq(consumer))
                .fetch(CONSUMER_INBOX.EVENT_ID)));
  }
}

package dev.payrelay.ledger.payment;

import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_EXCEPTION;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.CallbackOutcome;
import dev.payrelay.domain.channel.VerifiedCallback;
import dev.payrelay.domain.event.EventType;
import dev.payrelay.domain.event.PaymentExceptionRecorded;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.db.Transactions;
import dev.payrelay.ledger.db.UniqueKeys;
import dev.payrelay.ledger.db.generated.tables.records.PaymentExceptionRecord;
import dev.payrelay.ledger.outbox.OutboxWriter;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;

/**
 * Records verified callbacks that disagree with our records, for review (DESIGN invariant 2). One
 * row per (kind, payment, channel transaction), and for a refund or dispute per notification too: a
 * channel replaying the same callback finds the existing row through the unique key {@code
 * uk_payment_exception_dedupe}. A new row and its {@code PaymentExceptionRecorded} outbox event
 * commit together, so the payment's workflow learns of every exception and shows NEEDS_ATTENTION.
 */
public final class PaymentExceptions {

  /** Status of an exception waiting for an operator. */
  public static final String OPEN = "OPEN";

  /** Status of an exception an operator resolved. */
  public static final String RESOLVED = "RESOLVED";

  private static final String DEDUPE_KEY = "uk_payment_exception_dedupe";

  private final DSLContext dsl;
  private final OutboxWriter outbox;

  public PaymentExceptions(DSLContext dsl, OutboxWriter outbox) {
    this.dsl = dsl;
    this.outbox = outbox;
  }

  /**
   * An exception as recorded.
   *
   * @param id the row id
   * @param eventId the outbox event written with it, or null when it was already recorded
   */
  public record Recorded(long id, String eventId) {}

  /** Inserts an OPEN exception with its event, or finds the one already recorded for the key. */
  public Recorded record(
      String paymentId, String kind, VerifiedCallback cb, String details, Long inboxId) {
    return record(
        paymentId,
        kind,
        cb.channelTxnId(),
        occurrence(kind, cb.notificationId()),
        cb.amount(),
        details,
        inboxId);
  }

  /**
   * What tells one event of a kind apart from the next on the same payment and transaction: a
   * refund or dispute is one notification of many (a second partial refund, a refund after the
   * first was acknowledged), so each notification id is its own exception; the channel's retries of
   * one notification keep its id and find it. Null for the other kinds, one per transaction.
   */
  private static String occurrence(String kind, String notificationId) {
    boolean eachNotification =
        kind.equals(CallbackOutcome.REFUNDED.name())
            || kind.equals(CallbackOutcome.DISPUTED.name());
    if (!eachNotification || notificationId == null) {
      return null;
    }
    return occurrenceOf(notificationId);
  }

  /** The payment's OPEN exceptions, oldest first. */
  public static List<PaymentExceptionRecord> open(DSLContext tx, String paymentId) {
    return tx.selectFrom(PAYMENT_EXCEPTION)
        .where(PAYMENT_EXCEPTION.PAYMENT_ID.eq(paymentId))
        .and(PAYMENT_EXCEPTION.STATUS.eq(OPEN))
        .orderBy(PAYMENT_EXCEPTION.ID)
        .fetch();
  }

  /**
   * Those of {@code open} in which the channel reported money paid to us that waits for a decision
   * ({@link CallbackOutcome#reportsMoneyReceived}), each as {@code "KIND channelTxnId"}.
   */
  public static List<String> moneyReceived(List<PaymentExceptionRecord> open) {
    return open.stream()
        .filter(e -> reportsMoneyReceived(e.getKind()))
        .map(e -> e.getKind() + " " + e.getChannelTxnId())
        .toList();
  }

  private static boolean reportsMoneyReceived(String kind) {
    try {
      return CallbackOutcome.valueOf(kind).reportsMoneyReceived();
    } catch (IllegalArgumentException notACallbackOutcome) {
      return false; // e.g. a reconciliation finding's kind
    }
  }

  /**
   * As {@link #record(String, String, VerifiedCallback, String, Long)} for a disagreement found
   * elsewhere than in a callback (e.g. by reconciliation against the channel's statement).
   *
   * @param channelTxnId the channel transaction it concerns (part of the dedupe key)
   * @param channelAmount the amount the channel reported, in minor units
   */
  public Recorded record(
      String paymentId,
      String kind,
      String channelTxnId,
      Money channelAmount,
      String details,
      Long inboxId) {
    return record(paymentId, kind, channelTxnId, null, channelAmount, details, inboxId);
  }

  private Recorded record(
      String paymentId,
      String kind,
      String channelTxnId,
      String occurrence,
      Money channelAmount,
      String details,
      Long inboxId) {
    // A refused duplicate insert leaves the transaction usable: recordIn answers the existing row.
    return Transactions.run(
        dsl,
        cfg ->
            recordIn(
                cfg.dsl(),
                paymentId,
                kind,
                channelTxnId,
                occurrence,
                channelAmount,
                details,
                inboxId));
  }

  /**
   * Records an OPEN exception with its {@code PaymentExceptionRecorded} event inside the caller's
   * transaction {@code tx}, which should hold the payment's row lock already (it is taken again, so
   * the lock order stays payment first). One row per (kind, payment, channel transaction,
   * occurrence): when that key is recorded already (uk_payment_exception_dedupe) the existing row
   * is answered with a null event id, and {@code tx} stays usable (InnoDB rolls back only the
   * refused insert).
   *
   * @param occurrence what tells this exception apart from others of its kind on the payment and
   *     transaction, at most 16 characters (e.g. {@link #occurrenceOf} of a channel refund id), or
   *     null for one per transaction
   * @param channelAmount the amount the channel reported, in minor units
   * @param inboxId the {@code webhook_inbox} row of the callback that reported it, or null
   */
  public Recorded recordIn(
      DSLContext tx,
      String paymentId,
      String kind,
      String channelTxnId,
      String occurrence,
      Money channelAmount,
      String details,
      Long inboxId) {
    NewException row =
        newException(paymentId, kind, channelTxnId, occurrence, channelAmount, details, inboxId);
    try {
      return insert(tx, row);
    } catch (DataAccessException e) {
      if (!UniqueKeys.isViolationOf(e, DEDUPE_KEY)) {
        throw e;
      }
      return new Recorded(existing(tx, row.dedupeKey()), null);
    }
  }

  /** The first 16 hex digits of SHA-256 over {@code identity}: an occurrence of fixed width. */
  public static String occurrenceOf(String identity) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(identity.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JDK", e);
    }
  }

  private static NewException newException(
      String paymentId,
      String kind,
      String channelTxnId,
      String occurrence,
      Money channelAmount,
      String details,
      Long inboxId) {
    // At most 20 + 64 + 128 + 16 characters and three colons: within the column's 255.
    String dedupeKey =
        kind + ":" + paymentId + ":" + channelTxnId + (occurrence == null ? "" : ":" + occurrence);
    return new NewException(
        paymentId, kind, dedupeKey, channelTxnId, channelAmount, details, inboxId);
  }

  private static long existing(DSLContext ctx, String dedupeKey) {
    return ctx.select(PAYMENT_EXCEPTION.ID)
        .from(PAYMENT_EXCEPTION)
        .where(PAYMENT_EXCEPTION.DEDUPE_KEY.eq(dedupeKey))
        .fetchSingle()
        .value1();
  }

  /**
   * A {@code payment_exception} row to insert.
   *
   * @param amount the amount the channel reported, in minor units
   * @param inboxId the {@code webhook_inbox} row of the callback that reported it, or null
   */
  private record NewException(
      String paymentId,
      String kind,
      String dedupeKey,
      String channelTxnId,
      Money amount,
      String details,
      Long inboxId) {}

  private Recorded insert(DSLContext tx, NewException e) {
    lockPayment(tx, e.paymentId());
    long id = insertRow(tx, e);
    String eventId =
        outbox.appendPaymentEvent(
            tx,
            EventType.PAYMENT_EXCEPTION_RECORDED,
            e.paymentId(),
            String.valueOf(id),
            new PaymentExceptionRecorded(
                e.paymentId(),
                id,
                e.kind(),
                e.details(),
                e.channelTxnId(),
                e.amount().minorUnits(),
                e.amount().currencyCode()),
            PaymentExceptionRecorded.VERSION);
    return new Recorded(id, eventId);
  }

  /**
   * The payment's row lock first, the order every writer of a payment's events and every resolution
   * takes it in: numbering the exception's event must never wait for the payment while this
   * transaction already holds a new exception row a resolution of the payment would scan.
   */
  private static void lockPayment(DSLContext tx, String paymentId) {
    tx.select(PAYMENT_ORDER.PAYMENT_ID)
        .from(PAYMENT_ORDER)
        .where(PAYMENT_ORDER.PAYMENT_ID.eq(paymentId))
        .forUpdate()
        .fetchOptional();
  }

  /** Inserts the OPEN row; returns its id. */
  private static long insertRow(DSLContext tx, NewException e) {
    return tx.insertInto(PAYMENT_EXCEPTION)
        .set(PAYMENT_EXCEPTION.PAYMENT_ID, e.paymentId())
        .set(PAYMENT_EXCEPTION.KIND, e.kind())
        .set(PAYMENT_EXCEPTION.DEDUPE_KEY, e.dedupeKey())
        .set(PAYMENT_EXCEPTION.DETAILS, e.details())
        .set(PAYMENT_EXCEPTION.STATUS, OPEN)
        .set(PAYMENT_EXCEPTION.WEBHOOK_INBOX_ID, e.inboxId())
        .set(PAYMENT_EXCEPTION.CHANNEL_TXN_ID, e.channelTxnId())
        .set(PAYMENT_EXCEPTION.CHANNEL_AMOUNT_MINOR, e.amount().minorUnits())
        .set(PAYMENT_EXCEPTION.CHANNEL_CURRENCY, e.amount().currencyCode())
        .set(PAYMENT_EXCEPTION.CREATED_AT, SqlTime.now())
        .returningResult(PAYMENT_EXCEPTION.ID)
        .fetchSingle()
        .value1();
  }
}

package dev.payrelay.ledger.inbox;

import static dev.payrelay.ledger.db.generated.Tables.CONSUMER_INBOX;

import dev.payrelay.ledger.db.DatabaseErrors;
import dev.payrelay.ledger.db.RenderedQuery;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.db.UniqueKeys;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Objects;
import java.util.function.Function;
import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;

/**
 * A consumer's inbox (DESIGN invariant 7): the row {@code (consumer_name, event_id,
 * payload_sha256)} is inserted first, in the same transaction as the handler's business change, so
 * it exists exactly when the change committed. A redelivered event then hits the primary key
 * instead of running the change again.
 *
 * <p>The transaction is the caller's only unit of work: a message broker's ack must come after
 * {@link #process} returns, never before (an ack before the commit loses the message when the
 * commit fails; the RabbitMQ reliability guide's "consumer acknowledgements").
 */
public final class ConsumerInbox {

  /** Every consumed message's first statement: rendered once ({@link RenderedQuery}). */
  private static final RenderedQuery INSERT =
      RenderedQuery.of(
          DSL.insertInto(CONSUMER_INBOX)
              .set(CONSUMER_INBOX.CONSUMER_NAME, DSL.param("consumer", String.class))
              .set(CONSUMER_INBOX.EVENT_ID, DSL.param("eventId", String.class))
              .set(CONSUMER_INBOX.PAYLOAD_SHA256, DSL.param("payloadSha256", String.class))
              .set(CONSUMER_INBOX.PROCESSED_AT, SqlTime.now()),
          "consumer",
          "eventId",
          "payloadSha256");

  private static final String PRIMARY_KEY = "PRIMARY";

  private final DSLContext dsl;

  /** An inbox over {@code dsl}; each {@link #process} call borrows one pooled connection. */
  public ConsumerInbox(DSLContext dsl) {
    this.dsl = dsl;
  }

  /**
   * Runs {@code change} once per {@code (consumer, eventId)}: in one transaction, inserts the inbox
   * row, then applies the change, then commits.
   *
   * <ul>
   *   <li>{@link InboxOutcome.Kind#PROCESSED}: this call committed the row and the change; {@link
   *       InboxOutcome#value()} is the change's result.
   *   <li>{@link InboxOutcome.Kind#DUPLICATE}: a committed row has the same payload hash; nothing
   *       was changed (the transaction rolled back). Ack it.
   *   <li>{@link InboxOutcome.Kind#CONFLICT}: a committed row has another payload hash, so the id
   *       was reused for different content; nothing was changed. Quarantine it and alert.
   * </ul>
   *
   * A concurrent call with the same key waits on the first one's row lock (InnoDB) and, once that
   * commits, answers DUPLICATE or CONFLICT; if it rolls back, the waiting call processes instead.
   *
   * @param consumer the consumer's name, 1..64 characters, e.g. {@code notifications}
   * @param eventId the event's id (the AMQP {@code message_id}), 1..64 characters
   * @param payloadSha256 {@link #sha256(byte[])} of the delivered body, 64 lowercase hex digits
   * @param change the business change, run with the transaction's context; any exception it throws
   *     rolls everything back, inbox row included, and is rethrown as is
   * @throws IllegalArgumentException for an empty or too long consumer or event id, or a malformed
   *     hash
   * @throws DataAccessException when the database fails; {@link DatabaseErrors#isTransient} tells
   *     whether trying again later may succeed
   */
  public <T> InboxOutcome<T> process(
      String consumer, String eventId, String payloadSha256, Function<DSLContext, T> change) {
    requireId(consumer, "consumer");
    requireId(eventId, "eventId");
    if (payloadSha256 == null || !payloadSha256.matches("[0-9a-f]{64}")) {
      throw new IllegalArgumentException("payloadSha256 must be 64 lowercase hex digits");
    }
    Objects.requireNonNull(change, "change");
    for (int attempt = 1; ; attempt++) {
      InboxOutcome<T> outcome = attempt(consumer, eventId, payloadSha256, change);
      if (outcome != null || attempt == 2) {
        if (outcome == null) {
          throw new DataAccessException(
              "inbox row " + consumer + "/" + eventId + " collided twice but is gone");
        }
        return outcome;
      }
    }
  }

  /** One try; null when the row we collided with is gone (rolled back or purged since). */
  private <T> InboxOutcome<T> attempt(
      String consumer, String eventId, String payloadSha256, Function<DSLContext, T> change) {
    try {
      T value =
          dsl.transactionResult(
              configuration -> {
                DSLContext tx = configuration.dsl();
                INSERT.execute(tx, consumer, eventId, payloadSha256);
                return change.apply(tx);
              });
      return new InboxOutcome<>(InboxOutcome.Kind.PROCESSED, value, payloadSha256);
    } catch (DataAccessException e) {
      if (!UniqueKeys.isViolationOf(e, PRIMARY_KEY)) {
        throw e;
      }
    }
    String stored = storedHash(consumer, eventId);
    if (stored == null) {
      return null;
    }
    return new InboxOutcome<>(
        stored.equals(payloadSha256) ? InboxOutcome.Kind.DUPLICATE : InboxOutcome.Kind.CONFLICT,
        null,
        stored);
  }

  /** The stored payload hash of {@code (consumer, eventId)}, or null when there is no row. */
  public String storedHash(String consumer, String eventId) {
    return dsl.select(CONSUMER_INBOX.PAYLOAD_SHA256)
        .from(CONSUMER_INBOX)
        .where(CONSUMER_INBOX.CONSUMER_NAME.eq(consumer))
        .and(CONSUMER_INBOX.EVENT_ID.eq(eventId))
        .fetchOne(CONSUMER_INBOX.PAYLOAD_SHA256);
  }

  /**
   * The retention purge: deletes {@code consumer}'s rows processed more than {@code olderThan} ago
   * by the database clock, oldest first, {@code batchSize} rows per statement (each its own
   * transaction), until a batch comes back short. Keep {@code olderThan} at least as long as a
   * message can still be delivered again (outbox replay, quarantine replay): a purged row no longer
   * stops a redelivery.
   *
   * @return how many rows were deleted
   * @throws IllegalArgumentException if {@code olderThan} is not positive or {@code batchSize} < 1
   */
  public long purgeProcessed(String consumer, Duration olderThan, int batchSize) {
    requireId(consumer, "consumer");
    if (olderThan.isNegative() || olderThan.isZero()) {
      throw new IllegalArgumentException("olderThan must be positive: " + olderThan);
    }
    if (batchSize < 1) {
      throw new IllegalArgumentException("batchSize must be >= 1: " + batchSize);
    }
    long total = 0;
    int deleted;
    do {
      deleted =
          dsl.deleteFrom(CONSUMER_INBOX)
              .where(CONSUMER_INBOX.CONSUMER_NAME.eq(consumer))
              .and(CONSUMER_INBOX.PROCESSED_AT.lt(SqlTime.nowPlus(olderThan.negated())))
              .orderBy(CONSUMER_INBOX.PROCESSED_AT, CONSUMER_INBOX.EVENT_ID)
              .limit(batchSize)
              .execute();
      total += deleted;
    } while (deleted == batchSize);
    return total;
  }

  /** SHA-256 of {@code payload} as 64 lowercase hex digits (FIPS 180-4). */
  public static String sha256(byte[] payload) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(payload));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  /** {@link #sha256(byte[])} of the UTF-8 bytes of {@code payload}. */
  public static String sha256(String payload) {
    return sha256(payload.getBytes(StandardCharsets.UTF_8));
  }

  private static void requireId(String value, String name) {
    if (value == null || value.isEmpty() || value.length() > 64) {
      throw new IllegalArgumentException(name + " must be 1..64 characters: " + value);
    }
  }
}

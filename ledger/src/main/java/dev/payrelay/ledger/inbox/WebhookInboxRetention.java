package dev.payrelay.ledger.inbox;

import static dev.payrelay.ledger.db.generated.Tables.WEBHOOK_INBOX;

import dev.payrelay.ledger.db.SqlTime;
import java.time.Duration;
import org.jooq.Condition;
import org.jooq.DSLContext;

/**
 * The webhook inbox's retention purge, one bounded batch per call, each its own statement
 * (autocommit) so no statement holds many row locks or a long undo log. Two kinds of rows, by
 * {@code received_at} and the database clock ({@code NOW(6)}):
 *
 * <ul>
 *   <li>rejected rows (refused without a verified signature, {@link
 *       InboxCompletion#unverifiedRefusal()}: body cut to a prefix) after a short retention;
 *   <li>every other row after the audit retention, except rows still {@link
 *       WebhookInboxStore#RECEIVED}: stored and never decided, they are what {@code payrelay check}
 *       reports as {@code CALLBACK_NOT_DECIDED}, so they stay until a person deletes them.
 * </ul>
 *
 * Both walk {@code ix_webhook_inbox_retention (rejected, received_at)}, oldest first. Safe to run
 * from several processes at once (they delete disjoint rows); the worker runs it under a lease.
 */
public final class WebhookInboxRetention {

  private final DSLContext dsl;

  /** A purge over {@code dsl}. */
  public WebhookInboxRetention(DSLContext dsl) {
    this.dsl = dsl;
  }

  /**
   * Deletes up to {@code limit} rejected rows received more than {@code olderThan} ago.
   *
   * @return rows deleted; fewer than {@code limit} means none of that age is left
   * @throws IllegalArgumentException if {@code olderThan} is not positive or {@code limit} < 1
   */
  public int purgeRejected(Duration olderThan, int limit) {
    return purge(WEBHOOK_INBOX.REJECTED.isTrue(), olderThan, limit);
  }

  /**
   * Deletes up to {@code limit} decided rows (not rejected, not {@link WebhookInboxStore#RECEIVED})
   * received more than {@code olderThan} ago: verified callbacks with their whole body, and {@code
   * NOT_DECIDED} ones, whose channel retried them.
   *
   * @return rows deleted; fewer than {@code limit} means none of that age is left
   * @throws IllegalArgumentException if {@code olderThan} is not positive or {@code limit} < 1
   */
  public int purgeDecided(Duration olderThan, int limit) {
    return purge(
        WEBHOOK_INBOX.REJECTED.isFalse().and(WEBHOOK_INBOX.OUTCOME.ne(WebhookInboxStore.RECEIVED)),
        olderThan,
        limit);
  }

  private int purge(Condition kind, Duration olderThan, int limit) {
    if (olderThan.isNegative() || olderThan.isZero()) {
      throw new IllegalArgumentException("olderThan must be positive: " + olderThan);
    }
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be >= 1: " + limit);
    }
    return dsl.deleteFrom(WEBHOOK_INBOX)
        .where(kind)
        .and(WEBHOOK_INBOX.RECEIVED_AT.lt(SqlTime.nowPlus(olderThan.negated())))
        // The index's order (its entries end with the primary key): InnoDB reads only what it
        // deletes, plus the RECEIVED rows of that age in the decided range.
        .orderBy(WEBHOOK_INBOX.RECEIVED_AT, WEBHOOK_INBOX.ID)
        .limit(limit)
        .execute();
  }
}

package dev.payrelay.app.config;

import dev.payrelay.ledger.inbox.WebhookInboxStore;
import java.time.Duration;

/**
 * The webhook inbox's retention ({@link dev.payrelay.ledger.inbox.WebhookInboxRetention}).
 *
 * @param rejectedBodyBytes {@code PAYRELAY_INBOX_REJECTED_BODY_BYTES} (4096, 0 to 65536): how much
 *     of the body a callback refused without a verified signature keeps, with its headers and the
 *     SHA-256 and length of the whole body (the API's setting)
 * @param rejectedRetention {@code PAYRELAY_INBOX_REJECTED_RETENTION_DAYS} (7, 1 to 3650): rejected
 *     rows are purged this long after they arrived
 * @param decidedRetention {@code PAYRELAY_INBOX_RETENTION_DAYS} (400, 1 to 36500: a year and a
 *     month, past a yearly audit): every other row, with its whole body, is purged this long after
 *     it arrived, except rows still RECEIVED (never decided), which {@code payrelay check} reports
 *     and which are never purged
 * @param purgeBatch {@code PAYRELAY_INBOX_PURGE_BATCH} (500, 1 to 10000): rows per DELETE
 * @param purgeEvery pause between purge passes (10 min)
 */
public record InboxRetentionSettings(
    int rejectedBodyBytes,
    Duration rejectedRetention,
    Duration decidedRetention,
    int purgeBatch,
    Duration purgeEvery) {

  /** {@code PAYRELAY_INBOX_REJECTED_BODY_BYTES} when unset. */
  public static final int DEFAULT_REJECTED_BODY_BYTES =
      WebhookInboxStore.DEFAULT_REJECTED_BODY_BYTES;

  /** {@code PAYRELAY_INBOX_REJECTED_RETENTION_DAYS} when unset. */
  public static final int DEFAULT_REJECTED_DAYS = 7;

  /** {@code PAYRELAY_INBOX_RETENTION_DAYS} when unset. */
  public static final int DEFAULT_DECIDED_DAYS = 400;

  /** {@code PAYRELAY_INBOX_PURGE_BATCH} when unset. */
  public static final int DEFAULT_PURGE_BATCH = 500;
}

package dev.payrelay.app.config;

import java.time.Duration;

/**
 * The webhook inbox's retention ({@link dev.payrelay.ledger.inbox.WebhookInboxRetention}); the
 * settings are declared in {@link dev.payrelay.app.config.mapping.JobsMapping.Inbox}.
 *
 * @param rejectedBodyBytes how much of the body a callback refused without a verified signature
 *     keeps, in bytes (the API's setting)
 * @param rejectedRetention rejected rows are purged this long after they arrived
 * @param decidedRetention every other row is purged this long after it arrived, except rows still
 *     RECEIVED (never decided), which {@code payrelay check} reports and which are never purged
 * @param purgeBatch rows per DELETE
 * @param purgeEvery pause between purge passes (10 min)
 */
public record InboxRetentionSettings(
    int rejectedBodyBytes,
    Duration rejectedRetention,
    Duration decidedRetention,
    int purgeBatch,
    Duration purgeEvery) {}

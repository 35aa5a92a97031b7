package dev.payrelay.ledger.inbox;

import java.time.Instant;

/**
 * A callback as {@code webhook_inbox} keeps it.
 *
 * @param inboxId the row's id
 * @param receivedAt when it was stored, by the database clock (UTC)
 * @param ageSeconds how long ago that was, by the database clock
 * @param request the channel, headers (those no channel needs shown as {@code [redacted]}), exact
 *     body bytes and peer address
 */
public record StoredCallback(
    long inboxId, Instant receivedAt, long ageSeconds, ReceivedCallback request) {}

package dev.payrelay.api.admin;

/**
 * Body of {@code POST /v1/admin/payments/{id}/signal-token}.
 *
 * @param action {@code ACCEPT_AS_PAID}, {@code CLOSE}, {@code MARK_FOR_REFUND}, {@code ACKNOWLEDGE}
 *     (the {@code resolve} signal), {@code REPLAY_EVENT}, {@code DISCARD_EVENT} ({@code
 *     replayEvent}, {@code discardEvent}: need {@code eventId}), {@code REQUERY} or {@code
 *     EXTEND_DEADLINE} ({@code requery}, {@code extendDeadline}: the latter needs {@code until});
 *     case-insensitive
 * @param reason why, written into the signal's input; required
 * @param eventId the DEAD event, for {@code REPLAY_EVENT} and {@code DISCARD_EVENT}
 * @param until the new deadline (ISO-8601 instant), for {@code EXTEND_DEADLINE}
 */
public record SignalTokenRequest(String action, String reason, String eventId, String until) {}

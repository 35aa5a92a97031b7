package dev.payrelay.api.admin;

/**
 * Body of {@code POST /v1/admin/refunds/{refundId}/requery}, {@code .../accept-as-refunded} and
 * {@code .../mark-failed}, and (with {@code action}) of {@code .../signal-token}. JSON shapes:
 *
 * <pre>{@code {"reason":"channel answers again"}
 * {"reason":"Stripe dashboard shows it refunded","channelRefundId":"re_3Nx"}
 * {"action":"ACCEPT_AS_REFUNDED","reason":"...","channelRefundId":"re_3Nx"}}</pre>
 *
 * @param action for {@code signal-token} only: {@code REQUERY}, {@code ACCEPT_AS_REFUNDED} or
 *     {@code MARK_FAILED} (case-insensitive); ignored by the fix routes, whose path names it
 * @param reason why, in the operator's words; required, at most 1000 characters
 * @param channelRefundId the channel's refund id read at the channel, the evidence {@code
 *     ACCEPT_AS_REFUNDED} requires (at most 128 characters); ignored by the others
 * @param operator ignored: the operator is the API key's
 */
public record RefundFixRequest(
    String action, String reason, String channelRefundId, String operator) {}

package dev.payrelay.workflows;

/**
 * The {@code resolve} signal: an operator's decision for a payment in NEEDS_ATTENTION. JSON shape
 * (Temporal UI or {@code temporal workflow signal --name resolve --input '...'}):
 *
 * <pre>{@code {"operator":"alice","reason":"channel confirmed by phone","action":"ACCEPT_AS_PAID"}}
 * </pre>
 *
 * @param operator who decides; required
 * @param reason why; required
 * @param action {@code ACCEPT_AS_PAID}, {@code CLOSE} or {@code MARK_FOR_REFUND}; anything else is
 *     rejected and audited
 */
public record ResolveSignal(String operator, String reason, String action) {}

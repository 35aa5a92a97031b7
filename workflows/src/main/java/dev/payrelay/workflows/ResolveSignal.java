package dev.payrelay.workflows;

import dev.payrelay.domain.ResolutionAction;
import java.util.Arrays;

/**
 * The {@code resolve} signal: an operator's decision for a payment in NEEDS_ATTENTION. JSON shape
 * (Temporal UI or {@code temporal workflow signal --name resolve --input '...'}):
 *
 * <pre>{@code {"operator":"alice","reason":"channel confirmed by phone","action":"ACCEPT_AS_PAID",
 *  "token":"pst1.…"}}</pre>
 *
 * @param operator who decides; required
 * @param reason why; required
 * @param action {@code ACCEPT_AS_PAID}, {@code CLOSE}, {@code MARK_FOR_REFUND} or {@code
 *     ACKNOWLEDGE} (runs from before the {@code operator-acknowledge} version refuse it); anything
 *     else is rejected and audited
 * @param token the admin API's signal token for this workflow, action and payment ({@code
 *     dev.payrelay.domain.operator.SignalTokens}), or null; the activity that applies the action
 *     verifies it and audits the token's operator instead of {@code operator}. Without a valid one
 *     production refuses the action and other modes audit it as unverified. Signals from before the
 *     field existed deserialize it as null
 */
public record ResolveSignal(String operator, String reason, String action, String token) {

  /** A signal without a token (unverified; refused in production). */
  public ResolveSignal(String operator, String reason, String action) {
    this(operator, reason, action, null);
  }

  /**
   * Why this signal cannot be applied, or null when it is valid: operator and reason must be
   * non-blank, action one of {@link ResolutionAction} (case-insensitive). Pure, so workflows and
   * the admin API judge alike.
   */
  public String invalidBecause() {
    String missing = OperatorFields.missing(operator, reason);
    if (missing != null) {
      return missing;
    }
    if (ResolutionAction.parse(action).isEmpty()) {
      return "unknown action " + action + "; one of " + Arrays.toString(ResolutionAction.values());
    }
    return null;
  }
}

package dev.payrelay.workflows;

import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * The {@code requery} and {@code extendDeadline} signals. JSON shapes:
 *
 * <pre>{@code {"operator":"alice","reason":"customer says paid"}}
 * {"operator":"alice","reason":"bank holiday","until":"2026-12-01T12:00:00Z"}}</pre>
 *
 * @param operator who asks; required
 * @param reason why; required
 * @param until for {@code extendDeadline}: the new deadline, an ISO-8601 instant; ignored by {@code
 *     requery}
 * @param token a signal token for this workflow, action ({@code REQUERY} or {@code
 *     EXTEND_DEADLINE}) and payment, or null: these actions are never refused for want of one, but
 *     without a valid one the audit records the operator as unverified ({@link
 *     ResolveSignal#token})
 */
public record OperatorSignal(String operator, String reason, String until, String token) {

  /** A signal without a token (audited as unverified). */
  public OperatorSignal(String operator, String reason, String until) {
    this(operator, reason, until, null);
  }

  /** Why this signal cannot be applied, or null when valid. */
  public String invalidBecause(boolean needsUntil) {
    String missing = OperatorFields.missing(operator, reason);
    if (missing != null) {
      return missing;
    }
    if (!needsUntil) {
      return null;
    }
    try {
      Instant.parse(String.valueOf(until));
      return null;
    } catch (DateTimeParseException e) {
      return "until must be an ISO-8601 instant such as 2026-12-01T12:00:00Z, got " + until;
    }
  }
}

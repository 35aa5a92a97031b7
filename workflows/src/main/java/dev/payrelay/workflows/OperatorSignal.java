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
 */
public record OperatorSignal(String operator, String reason, String until) {

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

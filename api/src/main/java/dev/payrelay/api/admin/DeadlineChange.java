package dev.payrelay.api.admin;

import dev.payrelay.domain.DurationSyntax;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;

/**
 * Body of {@code POST /v1/admin/payments/{id}/extend-deadline}: exactly one of {@code until} and
 * {@code by}, and why. JSON shapes:
 *
 * <pre>{@code {"until":"2026-12-01T12:00:00Z","reason":"bank holiday"}
 * {"by":"30m","reason":"buyer at the counter"}}</pre>
 *
 * <p>The deadline is rounded up to a whole second, as the ledger stores it.
 *
 * @param until the new deadline, an ISO-8601 instant ({@code 2026-12-01T12:00:00Z})
 * @param by how far to move the current deadline ({@code expires_at}) later, in the configuration's
 *     duration syntax ({@link DurationSyntax}): {@code 90s}, {@code 30m}, {@code 2h}, {@code 1d};
 *     positive; a bare number or ISO-8601 is refused
 * @param reason why; required
 * @param operator ignored: the operator is the API key's
 */
public record DeadlineChange(String until, String by, String reason, String operator) {

  /**
   * The new deadline this change asks for, for a payment whose deadline is {@code current}. It must
   * be later than {@code current} and than {@code now}, and at most {@code max} after {@code now},
   * as the ledger requires ({@link dev.payrelay.ledger.payment.PaymentDeadlines}); the ledger
   * checks again, against the database's clock, when the workflow records it.
   *
   * @throws IllegalArgumentException with the message for the operator: neither or both of until
   *     and by, a malformed one, or a deadline outside that range
   */
  Instant newDeadline(Instant current, Instant now, Duration max) {
    boolean hasUntil = until != null && !until.isBlank();
    boolean hasBy = by != null && !by.isBlank();
    if (hasUntil == hasBy) {
      throw new IllegalArgumentException(
          "give either until (an ISO-8601 instant such as 2026-12-01T12:00:00Z) or by (a"
              + " duration such as 30m or 2h), not "
              + (hasUntil ? "both" : "neither"));
    }
    if (hasBy && current == null) {
      throw new IllegalArgumentException("the payment has no deadline to move by " + by);
    }
    Instant next = wholeSecond(hasUntil ? instant(until) : current.plus(duration(by, max)));
    if (current != null && !next.isAfter(current)) {
      throw new IllegalArgumentException(
          "an extension must be later than the current deadline " + current + ", got " + next);
    }
    if (!next.isAfter(now)) {
      throw new IllegalArgumentException(
          "an extension must be in the future (now " + now + "), got " + next);
    }
    if (next.isAfter(now.plus(max))) {
      throw new IllegalArgumentException(
          "an extension may reach at most "
              + max.toDays()
              + " days ahead ("
              + now.plus(max)
              + "), got "
              + next);
    }
    return next;
  }

  /**
   * {@code t} rounded up to a whole second: the ledger stores a new deadline without its fraction,
   * and the workflow must wait for the same instant the ledger holds.
   */
  private static Instant wholeSecond(Instant t) {
    Instant down = t.truncatedTo(ChronoUnit.SECONDS);
    return down.equals(t) ? t : down.plusSeconds(1);
  }

  private static Instant instant(String text) {
    try {
      return Instant.parse(text.strip());
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          "until must be an ISO-8601 instant such as 2026-12-01T12:00:00Z, got " + text);
    }
  }

  private static Duration duration(String text, Duration max) {
    Duration d;
    try {
      d = DurationSyntax.parse(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("by " + e.getMessage() + ", got " + text);
    }
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException("by must be a positive duration, got " + text);
    }
    if (d.compareTo(max) > 0) {
      throw new IllegalArgumentException(
          "by may be at most " + max.toDays() + " days, got " + text);
    }
    return d;
  }
}

package dev.payrelay.simulators.refund;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * How a simulator misbehaves with one payment's refunds (issue 28 item 6), to exercise payrelay's
 * unknown-result handling: set per payment through a simulator's Java API or its {@code POST
 * /admin/refund-faults}, it holds for every later refund of that payment until set again.
 *
 * @param kind what goes wrong
 * @param delay for {@link Kind#ANSWER_LATE} how long the answer waits after the refund is made (set
 *     it above the adapter's read timeout); for {@link Kind#REPORT_LATE} how long the notification
 *     waits; zero otherwise
 */
public record RefundFault(Kind kind, Duration delay) {

  /** What goes wrong. */
  public enum Kind {
    /** Nothing: the refund is made, answered and notified at once. */
    NONE,
    /** The refund is made and notified, but the API answers only after {@code delay}. */
    ANSWER_LATE,
    /** The refund is made and answered; its notification is never sent. */
    LOSE_CALLBACK,
    /** The refund's notification is sent twice, each time under a new notification id. */
    REPORT_TWICE,
    /** The refund's notification is sent {@code delay} after the refund. */
    REPORT_LATE,
    /**
     * A refund nobody asked payrelay for (made in the channel's merchant console) is made at once
     * when the fault is set, under a number of the simulator's, and notified.
     */
    UNREQUESTED,
    /**
     * The channel fails the refund: no money moves, and it says so in its answer or notification.
     */
    FAIL
  }

  /** Everything as a well-behaved channel does it. */
  public static final RefundFault NONE = new RefundFault(Kind.NONE, Duration.ZERO);

  /**
   * Validates the fault.
   *
   * @throws IllegalArgumentException for a negative delay
   * @throws NullPointerException if a component is null
   */
  public RefundFault {
    Objects.requireNonNull(kind, "kind");
    if (Objects.requireNonNull(delay, "delay").isNegative()) {
      throw new IllegalArgumentException("delay must not be negative: " + delay);
    }
  }

  /** A fault without a delay. */
  public static RefundFault of(Kind kind) {
    return new RefundFault(kind, Duration.ZERO);
  }

  /**
   * The fault an admin request body names: {@code {"fault":"ANSWER_LATE","delay_millis":3000}};
   * {@code fault} is a {@link Kind} name (case-insensitive, absent = NONE), {@code delay_millis} a
   * non-negative integer (absent = 0).
   *
   * @throws IllegalArgumentException for an unknown fault or a delay that is not such an integer
   */
  public static RefundFault fromJson(JsonNode body) {
    JsonNode fault = body.path("fault");
    Kind kind;
    try {
      kind =
          fault.isMissingNode() ? Kind.NONE : Kind.valueOf(fault.asText().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("unknown fault " + fault.asText(), e);
    }
    JsonNode delay = body.path("delay_millis");
    if (!delay.isMissingNode() && (!delay.canConvertToLong() || delay.asLong() < 0)) {
      throw new IllegalArgumentException("delay_millis must be a non-negative integer: " + delay);
    }
    return new RefundFault(kind, Duration.ofMillis(delay.asLong(0)));
  }
}

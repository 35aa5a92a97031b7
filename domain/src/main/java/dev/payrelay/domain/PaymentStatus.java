package dev.payrelay.domain;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The lifecycle of a payment attempt as stored in {@code payment_order.status}.
 *
 * <p>The allowed moves are the rows of {@link PaymentTransition}, the one table every write path
 * uses: PENDING to PAID (the channel confirmed, or an operator accepted its amount), PENDING to
 * CLOSED (an operator closed it at the channel), PENDING to EXPIRED (deadline passed, closed at the
 * channel), CLOSED or EXPIRED to PAID only by an operator accepting a PAID_AFTER_CLOSE, and PAID to
 * PARTIALLY_REFUNDED or REFUNDED as the refunds the channel confirmed add up (issue 28). A callback
 * never moves a paid payment back: it becomes a recorded exception instead.
 *
 * <p>A refunded payment was paid ({@link #wasPaid}): it is never expired or closed, its payment
 * line is still in the channel's statement, and its {@code PaymentConfirmed} event stays owed.
 */
public enum PaymentStatus {
  PENDING,
  PAID,
  CLOSED,
  EXPIRED,
  /** PAID, and refunds the channel confirmed took back part of the captured amount. */
  PARTIALLY_REFUNDED,
  /** PAID, and refunds the channel confirmed took back the whole captured amount. Final. */
  REFUNDED;

  private static final Set<PaymentStatus> PAID_STATES =
      EnumSet.of(PAID, PARTIALLY_REFUNDED, REFUNDED);

  /**
   * The states whose purchase is still granted: PAID and PARTIALLY_REFUNDED. A partial refund keeps
   * the grants until issue 28 item 4 states its configurable rule; a full refund does not.
   */
  private static final Set<PaymentStatus> GRANTED_STATES = EnumSet.of(PAID, PARTIALLY_REFUNDED);

  /** Whether the buyer's money reached us at some point: PAID or refunded in part or in full. */
  public boolean wasPaid() {
    return PAID_STATES.contains(this);
  }

  /** Whether the purchase's entitlements are owed in this state (PAID, PARTIALLY_REFUNDED). */
  public boolean owesEntitlements() {
    return GRANTED_STATES.contains(this);
  }

  /** The states that {@link #wasPaid}, as stored names, for SQL {@code IN} lists. */
  public static Set<String> paidNames() {
    return names(PAID_STATES);
  }

  /** The states that {@link #owesEntitlements}, as stored names, for SQL {@code IN} lists. */
  public static Set<String> entitledNames() {
    return names(GRANTED_STATES);
  }

  private static Set<String> names(Set<PaymentStatus> states) {
    return states.stream().map(Enum::name).collect(Collectors.toCollection(TreeSet::new));
  }

  /** Whether some {@link PaymentTransition} moves a payment in this state to {@code next}. */
  public boolean canMoveTo(PaymentStatus next) {
    return !PaymentTransition.between(this, next).isEmpty();
  }

  /** Whether no {@link PaymentTransition} starts from this state. */
  public boolean isFinal() {
    return Arrays.stream(PaymentTransition.values()).noneMatch(t -> t.startsFrom(this));
  }
}

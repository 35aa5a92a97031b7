package dev.payrelay.domain;

import java.util.Arrays;

/**
 * The lifecycle of a payment attempt as stored in {@code payment_order.status}.
 *
 * <p>The allowed moves are the rows of {@link PaymentTransition}, the one table every write path
 * uses: PENDING to PAID (the channel confirmed, or an operator accepted its amount), PENDING to
 * CLOSED (an operator closed it at the channel), PENDING to EXPIRED (deadline passed, closed at the
 * channel), and CLOSED or EXPIRED to PAID only by an operator accepting a PAID_AFTER_CLOSE. PAID is
 * final: a later callback never moves a payment, it becomes a recorded exception instead.
 */
public enum PaymentStatus {
  PENDING,
  PAID,
  CLOSED,
  EXPIRED;

  /** Whether some {@link PaymentTransition} moves a payment in this state to {@code next}. */
  public boolean canMoveTo(PaymentStatus next) {
    return !PaymentTransition.between(this, next).isEmpty();
  }

  /** Whether no {@link PaymentTransition} starts from this state. */
  public boolean isFinal() {
    return Arrays.stream(PaymentTransition.values()).noneMatch(t -> t.startsFrom(this));
  }
}

package dev.payrelay.domain;

import java.util.EnumSet;
import java.util.Set;

/**
 * The lifecycle of a payment attempt as stored in {@code payment_order.status}.
 *
 * <p>Allowed moves: PENDING to PAID (channel confirmed), PENDING to CLOSED (closed at the channel)
 * and PENDING to EXPIRED (deadline passed). PAID, CLOSED and EXPIRED are final: a later callback
 * never moves a final payment (a PAID after close becomes a recorded exception instead).
 */
public enum PaymentStatus {
  PENDING,
  PAID,
  CLOSED,
  EXPIRED;

  /** Whether a payment in this state may move to {@code next}. */
  public boolean canMoveTo(PaymentStatus next) {
    return allowedNext().contains(next);
  }

  /** Whether no further transition is allowed. */
  public boolean isFinal() {
    return allowedNext().isEmpty();
  }

  private Set<PaymentStatus> allowedNext() {
    return this == PENDING
        ? EnumSet.of(PAID, CLOSED, EXPIRED)
        : EnumSet.noneOf(PaymentStatus.class);
  }
}

package dev.payrelay.domain.event;

/**
 * Delivery state of an {@code outbox_event} row.
 *
 * <ul>
 *   <li>PENDING: written, not yet handed to Temporal (or hand-off failed and awaits retry).
 *   <li>DISPATCHED: handed to the payment's workflow by signalWithStart; not yet confirmed by the
 *       broker.
 *   <li>SENT: the broker confirmed the routed message (publisher confirm, no return).
 *   <li>DEAD: retries exhausted or a permanent error; waits for an operator's replay or discard.
 *   <li>DISCARDED: an operator closed a DEAD event without publishing it (audited).
 * </ul>
 */
public enum OutboxStatus {
  PENDING,
  DISPATCHED,
  SENT,
  DEAD,
  DISCARDED
}

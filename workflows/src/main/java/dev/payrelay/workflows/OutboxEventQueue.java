package dev.payrelay.workflows;

import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The outbox events a payment's workflow still has to handle, ordered by outbox {@code seq}, each
 * event id accepted once: an id already queued or taken stays ignored, so a dispatcher that signals
 * the same row again (lease expired, crash before mark DISPATCHED) changes nothing.
 *
 * <p>Ordering is by seq among the events the workflow holds; an event whose signal arrives after a
 * later-seq event was already taken is handled next, not before it (no event is held back waiting
 * for a gap that may never fill). Deterministic: no hashing order leaks into iteration.
 */
final class OutboxEventQueue {

  /** Ties on seq (should not happen: seq is the row's auto-increment) break on id, stably. */
  private static final Comparator<OutboxEventSignal> OUTBOX_ORDER =
      Comparator.comparingLong(OutboxEventSignal::seq).thenComparing(OutboxEventSignal::eventId);

  private final TreeSet<OutboxEventSignal> queued = new TreeSet<>(OUTBOX_ORDER);
  private final Set<String> seenEventIds = new HashSet<>();

  /** Queues the event unless its id was seen before; returns whether it was queued. */
  boolean offer(OutboxEventSignal event) {
    if (!seenEventIds.add(event.eventId())) {
      return false;
    }
    queued.add(event);
    return true;
  }

  /**
   * Queues an event again although its id was seen: an operator's replay of a DEAD event. A no-op
   * while it is still queued.
   */
  void requeue(OutboxEventSignal event) {
    seenEventIds.add(event.eventId());
    queued.add(event);
  }

  /** Takes the event with the lowest seq, if any; its id stays seen. */
  Optional<OutboxEventSignal> take() {
    return Optional.ofNullable(queued.pollFirst());
  }

  boolean isEmpty() {
    return queued.isEmpty();
  }

  /** Queued event ids in seq order. */
  List<String> queuedEventIds() {
    return queued.stream().map(OutboxEventSignal::eventId).toList();
  }

  /** The queued events in seq order. */
  List<OutboxEventSignal> queuedEvents() {
    return List.copyOf(queued);
  }
}

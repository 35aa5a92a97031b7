package dev.payrelay.amqp.consume;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** The deliveries this process holds unacknowledged, each with the instant it arrived. */
final class InFlightDeliveries {

  private final Clock clock;
  private final Map<Long, Instant> since = new ConcurrentHashMap<>();
  private final AtomicLong deliveries = new AtomicLong();

  /** Times deliveries on {@code clock}. */
  InFlightDeliveries(Clock clock) {
    this.clock = clock;
  }

  /** Records a delivery that arrived now; the key ends it ({@link #end}). */
  long begin() {
    long key = deliveries.incrementAndGet();
    since.put(key, clock.instant());
    return key;
  }

  /** The delivery of {@code key} was acked, republished or given back. */
  void end(long key) {
    since.remove(key);
  }

  /** Whether no delivery is held. */
  boolean isEmpty() {
    return since.isEmpty();
  }

  /** The age of the oldest delivery held, in seconds; 0 when none is. */
  double oldestAgeSeconds() {
    Instant now = clock.instant();
    return since.values().stream()
        .min(Instant::compareTo)
        .map(at -> Duration.between(at, now).toMillis() / 1000.0)
        .orElse(0.0);
  }
}

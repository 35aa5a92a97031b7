package dev.payrelay.tools.bench;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * When each expected key (a payment id) was first seen, and how many sightings were repeats.
 * Thread-safe; times are {@link System#nanoTime()} based.
 */
final class Arrivals {

  private final Map<String, Long> firstSeen = new ConcurrentHashMap<>();
  private final AtomicLong duplicates = new AtomicLong();
  private final AtomicLong last = new AtomicLong();

  /** Records a sighting of {@code key} now; a second sighting of a key counts as a duplicate. */
  void seen(String key) {
    long now = System.nanoTime();
    if (firstSeen.putIfAbsent(key, now) != null) {
      duplicates.incrementAndGet();
    } else {
      last.accumulateAndGet(now, Math::max);
    }
  }

  /** When {@code key} was first seen, or null. */
  Long firstSeen(String key) {
    return firstSeen.get(key);
  }

  int distinct() {
    return firstSeen.size();
  }

  long duplicates() {
    return duplicates.get();
  }

  /** The latest first sighting, or 0 when none. */
  long lastFirstSeen() {
    return last.get();
  }
}

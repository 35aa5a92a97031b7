package dev.payrelay.app.dispatch;

import dev.payrelay.workflows.OutboxEventSignal;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.temporal.common.interceptors.WorkerInterceptor;
import io.temporal.common.interceptors.WorkerInterceptorBase;
import io.temporal.common.interceptors.WorkflowInboundCallsInterceptor;
import io.temporal.common.interceptors.WorkflowInboundCallsInterceptorBase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * Backpressure between the outbox and the Temporal worker: at most {@link #size()} events handed to
 * their workflows whose {@code onOutboxEvent} signal no workflow task has handled yet. The {@link
 * OutboxDispatcher} claims no more rows than there is {@link #room()} for, so a burst of callbacks
 * waits in the outbox (PENDING, in the outbox gauges) instead of in Temporal's task queue. There, a
 * workflow task that waits longer than the sticky queue's schedule-to-start timeout (5 s, the Java
 * SDK's default {@code WorkerOptions.stickyQueueScheduleToStartTimeout}) times out, is scheduled
 * again on the normal queue and replays the payment's whole history: under 16 callers flat out that
 * was more than half the payments (docs/benchmarks.md, 2026-12-03).
 *
 * <p>A slot is taken ({@link #reserve}) before the hand-off is sent and given back when (counted as
 * {@code payrelay.outbox.handoff.window.freed} with {@code by} = {@code not_sent}, {@code handled},
 * {@code confirmed} or {@code expired}):
 *
 * <ul>
 *   <li>the hand-off failed, or sent nothing ({@link #release});
 *   <li>a workflow task of this process handles the event's signal ({@link #interceptor()}, on the
 *       worker's factory): the usual way, as the dispatcher and the worker run in one process;
 *   <li>the event's outbox row no longer waits for its confirm ({@link #sweep}: SENT, DEAD,
 *       DISCARDED or purged), for an event another worker's workflow handled; read at most every
 *       {@value #SWEEP_EVERY_MILLIS} ms for slots held longer than {@value #SWEEP_AGE_MILLIS} ms;
 *   <li>{@link #EXPIRY} after Temporal accepted the hand-off ({@link #sent}; after it was taken
 *       while the call is under way): a task that waited that long has timed out on the sticky
 *       queue anyway, and a row that stays DISPATCHED (its publish retrying while the broker is
 *       down) must not stop the dispatcher.
 * </ul>
 *
 * <p>Because of the expiry the size is a soft limit: while tasks wait longer than 5 s, about {@code
 * size} more events are handed off each 5 s.
 *
 * <p>Thread-safe: the dispatcher's thread reads the room and sweeps, its hand-off threads reserve
 * and release, workflow threads report handled signals.
 */
public final class HandoffWindow {

  /** How long a slot is held at most: the SDK's default sticky schedule-to-start timeout. */
  public static final Duration EXPIRY = Duration.ofSeconds(5);

  static final long SWEEP_AGE_MILLIS = 200;
  static final long SWEEP_EVERY_MILLIS = 200;
  private static final long WAIT_STEP_MILLIS = 50;

  private final int size;
  private final LongSupplier nanoTime;
  private final Map<String, Long> taken = new ConcurrentHashMap<>();
  private final Semaphore freed = new Semaphore(0);
  private final Counter notSent;
  private final Counter handled;
  private final Counter confirmed;
  private final Counter expired;
  private volatile long lastSweep;

  /**
   * A window of {@code size} slots, with its gauges {@code payrelay.outbox.handoff.window} (slots
   * taken) and {@code payrelay.outbox.handoff.window.size}.
   *
   * @param size slots, at least 1
   * @throws IllegalArgumentException for a size below 1
   */
  public HandoffWindow(int size, MeterRegistry metrics) {
    this(size, metrics, System::nanoTime);
  }

  HandoffWindow(int size, MeterRegistry metrics, LongSupplier nanoTime) {
    if (size < 1) {
      throw new IllegalArgumentException("hand-off window must hold at least 1 event: " + size);
    }
    this.size = size;
    this.nanoTime = nanoTime;
    this.lastSweep = nanoTime.getAsLong();
    this.notSent = freedBy(metrics, "not_sent");
    this.handled = freedBy(metrics, "handled");
    this.confirmed = freedBy(metrics, "confirmed");
    this.expired = freedBy(metrics, "expired");
    Gauge.builder("payrelay.outbox.handoff.window", taken, Map::size)
        .description("events handed to workflows whose signal no workflow task has handled yet")
        .register(metrics);
    Gauge.builder("payrelay.outbox.handoff.window.size", () -> size)
        .description("the most events the dispatcher keeps handed off and not yet handled")
        .register(metrics);
  }

  /** The most events handed off and not yet handled. */
  public int size() {
    return size;
  }

  /** How many more events may be handed off now (0 when full), after expiring old slots. */
  public int room() {
    expire();
    return Math.max(0, size - taken.size());
  }

  /** Takes the slot of an event about to be handed off. */
  public void reserve(String eventId) {
    taken.put(eventId, nanoTime.getAsLong());
  }

  /**
   * Restarts an event's slot's expiry once Temporal accepted its hand-off, which may take up to a
   * third of the lease; no-op if not held.
   */
  public void sent(String eventId) {
    taken.replace(eventId, nanoTime.getAsLong());
  }

  /** Gives back an event's slot (its hand-off failed, or sent nothing); no-op if not held. */
  public void release(String eventId) {
    free(eventId, notSent);
  }

  private void free(String eventId, Counter by) {
    if (taken.remove(eventId) != null) {
      by.increment();
      freed.release();
    }
  }

  private static Counter freedBy(MeterRegistry metrics, String by) {
    return Counter.builder("payrelay.outbox.handoff.window.freed")
        .description("slots of the dispatcher's hand-off window given back, by why")
        .tag("by", by)
        .register(metrics);
  }

  /**
   * Gives back the slots, held longer than {@value #SWEEP_AGE_MILLIS} ms, of events whose rows no
   * longer wait for their confirm; reads at most every {@value #SWEEP_EVERY_MILLIS} ms and only
   * when such slots exist.
   *
   * @param unconfirmedOf of some event ids, those whose outbox rows are still PENDING or DISPATCHED
   *     ({@code OutboxStore.unconfirmedOf}); may throw (database down), which this passes on
   */
  public void sweep(Function<Collection<String>, Set<String>> unconfirmedOf) {
    long now = nanoTime.getAsLong();
    if (now - lastSweep < TimeUnit.MILLISECONDS.toNanos(SWEEP_EVERY_MILLIS)) {
      return;
    }
    lastSweep = now;
    long takenBefore = now - TimeUnit.MILLISECONDS.toNanos(SWEEP_AGE_MILLIS);
    List<String> old = new ArrayList<>();
    taken.forEach(
        (eventId, at) -> {
          if (at - takenBefore <= 0) {
            old.add(eventId);
          }
        });
    if (old.isEmpty()) {
      return;
    }
    Set<String> waiting = unconfirmedOf.apply(old);
    for (String eventId : old) {
      if (!waiting.contains(eventId)) {
        free(eventId, confirmed);
      }
    }
  }

  /**
   * Waits until there is room for {@code atLeast} events, at most {@code max}.
   *
   * @return whether there is
   * @throws InterruptedException when interrupted while waiting
   */
  public boolean awaitRoom(int atLeast, Duration max) throws InterruptedException {
    long deadline = nanoTime.getAsLong() + max.toNanos();
    while (room() < atLeast) {
      long left = TimeUnit.NANOSECONDS.toMillis(deadline - nanoTime.getAsLong());
      if (left <= 0) {
        return false;
      }
      freed.tryAcquire(Math.min(left, WAIT_STEP_MILLIS), TimeUnit.MILLISECONDS);
    }
    freed.drainPermits();
    return true;
  }

  /**
   * The worker interceptor that gives back an event's slot when a workflow task of this process
   * handles its {@code onOutboxEvent} signal (a signal-with-start's too), replays included. It adds
   * no command to any workflow, so histories and their replay are unchanged.
   */
  public WorkerInterceptor interceptor() {
    return new WorkerInterceptorBase() {
      @Override
      public WorkflowInboundCallsInterceptor interceptWorkflow(
          WorkflowInboundCallsInterceptor next) {
        return new WorkflowInboundCallsInterceptorBase(next) {
          @Override
          public void handleSignal(SignalInput input) {
            Object[] arguments = input.getArguments();
            if (arguments.length > 0 && arguments[0] instanceof OutboxEventSignal signal) {
              free(signal.eventId(), handled);
            }
            super.handleSignal(input);
          }
        };
      }
    };
  }

  private void expire() {
    long takenBefore = nanoTime.getAsLong() - EXPIRY.toNanos();
    taken.forEach(
        (eventId, at) -> {
          // remove(key, value): not when it was freed or taken again meanwhile
          if (at - takenBefore <= 0 && taken.remove(eventId, at)) {
            expired.increment();
            freed.release();
          }
        });
  }
}

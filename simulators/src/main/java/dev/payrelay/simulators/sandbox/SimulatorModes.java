package dev.payrelay.simulators.sandbox;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The simulator's current {@link SandboxMode}s: one global, optionally overridden per payment. Each
 * setting carries its own count of query failures still due, so setting a mode restarts it.
 */
final class SimulatorModes {

  private record Active(SandboxMode mode, AtomicInteger failuresLeft) {
    Active(SandboxMode mode) {
      this(mode, new AtomicInteger(mode.queryFailures()));
    }
  }

  private final AtomicReference<Active> global =
      new AtomicReference<>(new Active(SandboxMode.NORMAL));
  private final ConcurrentHashMap<String, Active> perPayment = new ConcurrentHashMap<>();

  void set(SandboxMode mode) {
    global.set(new Active(mode));
  }

  void set(String paymentId, SandboxMode mode) {
    perPayment.put(paymentId, new Active(mode));
  }

  void clear(String paymentId) {
    perPayment.remove(paymentId);
  }

  /** The mode in force for a payment: its own if set, else the global one. */
  SandboxMode of(String paymentId) {
    return active(paymentId).mode();
  }

  /**
   * Plays a query's misbehaviour: sleeps the query delay, then fails if a failure is still due.
   *
   * @throws SimulatorException 503 for a simulated failure (or an interrupted sleep)
   */
  void beforeQuery(String paymentId) {
    Active active = active(paymentId);
    sleep(active.mode().queryDelay());
    if (active.failuresLeft().getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      throw new SimulatorException(503, "simulated query failure for " + paymentId);
    }
  }

  private Active active(String paymentId) {
    Active own = perPayment.get(paymentId);
    return own != null ? own : global.get();
  }

  private static void sleep(Duration delay) {
    if (delay.isZero()) {
      return;
    }
    try {
      Thread.sleep(delay);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SimulatorException(503, "query interrupted while slowed down");
    }
  }
}

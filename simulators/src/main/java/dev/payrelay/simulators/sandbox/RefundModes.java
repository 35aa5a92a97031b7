package dev.payrelay.simulators.sandbox;

import dev.payrelay.simulators.RefundMode;
import java.util.concurrent.ConcurrentHashMap;

/** The simulator's current {@link RefundMode}s: one global, optionally overridden per payment. */
final class RefundModes {

  private volatile RefundMode global = RefundMode.NORMAL;
  private final ConcurrentHashMap<String, RefundMode> perPayment = new ConcurrentHashMap<>();

  void set(RefundMode mode) {
    global = mode;
  }

  void set(String paymentId, RefundMode mode) {
    perPayment.put(paymentId, mode);
  }

  /** The mode in force for a payment's refunds: its own if set, else the global one. */
  RefundMode of(String paymentId) {
    return perPayment.getOrDefault(paymentId, global);
  }
}

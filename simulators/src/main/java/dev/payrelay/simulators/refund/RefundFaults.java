package dev.payrelay.simulators.refund;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A simulator's {@link RefundFault}s by payment (the channel's merchant order number), and the
 * delivery of refund notifications they shape: off the request thread, as a channel notifies after
 * it answered, so an API answer and its notification race as they do at the channel. Close it with
 * the simulator.
 */
public final class RefundFaults implements AutoCloseable {

  private final Map<String, RefundFault> byPayment = new ConcurrentHashMap<>();
  private final ScheduledExecutorService notices =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "simulator-refund-notices");
            t.setDaemon(true);
            return t;
          });

  /** Sets the payment's fault; {@link RefundFault#NONE} restores normal behaviour. */
  public void set(String paymentId, RefundFault fault) {
    byPayment.put(paymentId, fault);
  }

  /** The payment's fault, {@link RefundFault#NONE} unless set. */
  public RefundFault of(String paymentId) {
    return byPayment.getOrDefault(paymentId, RefundFault.NONE);
  }

  /**
   * Delivers a new refund's notification as the payment's fault says: at once, never ({@code
   * LOSE_CALLBACK}), twice ({@code REPORT_TWICE}: {@code again} builds the second under a new id),
   * or after the delay ({@code REPORT_LATE}).
   *
   * @param once posts the notification
   * @param again posts the same refund's notification again under a new notification id
   */
  public void notify(String paymentId, Runnable once, Runnable again) {
    RefundFault fault = of(paymentId);
    switch (fault.kind()) {
      case LOSE_CALLBACK -> {}
      case REPORT_LATE -> notices.schedule(once, fault.delay().toMillis(), TimeUnit.MILLISECONDS);
      case REPORT_TWICE ->
          notices.execute(
              () -> {
                once.run();
                again.run();
              });
      default -> notices.execute(once);
    }
  }

  /**
   * Holds the API answer back for {@code ANSWER_LATE}: sleeps the fault's delay on the request
   * thread, after the refund was made.
   */
  public void beforeAnswer(String paymentId) {
    RefundFault fault = of(paymentId);
    if (fault.kind() == RefundFault.Kind.ANSWER_LATE) {
      sleep(fault.delay());
    }
  }

  private static void sleep(Duration delay) {
    try {
      Thread.sleep(delay);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Stops delivering; notifications still scheduled are dropped. */
  @Override
  public void close() {
    notices.shutdownNow();
  }
}

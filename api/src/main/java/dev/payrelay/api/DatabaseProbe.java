package dev.payrelay.api;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/**
 * Asks whether the database answers, and gives up waiting after a bound: a pool waiting for a
 * connection to a dead server takes its full connection timeout (5 s), a readiness probe must
 * answer in one. Probes run one at a time on their own thread; callers that come while one is in
 * flight wait for that same probe, so a burst of health checks never piles up connection attempts.
 */
public final class DatabaseProbe implements AutoCloseable {

  private final BooleanSupplier databaseUp;
  private final ExecutorService thread =
      Executors.newSingleThreadExecutor(
          Thread.ofPlatform().name("payrelay-database-probe").daemon().factory());
  private CompletableFuture<Boolean> inFlight;

  /** Probes with {@code databaseUp} (true when a trivial query answered). */
  public DatabaseProbe(BooleanSupplier databaseUp) {
    this.databaseUp = databaseUp;
  }

  /**
   * Whether the database answered within {@code wait}.
   *
   * @return false when it failed or has not answered yet (the probe goes on and serves the next
   *     caller)
   */
  public boolean upWithin(Duration wait) {
    CompletableFuture<Boolean> probe;
    synchronized (this) {
      if (inFlight == null || inFlight.isDone()) {
        inFlight = CompletableFuture.supplyAsync(databaseUp::getAsBoolean, thread);
      }
      probe = inFlight;
    }
    try {
      return probe.get(wait.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException | ExecutionException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  @Override
  public void close() {
    thread.shutdownNow();
  }
}

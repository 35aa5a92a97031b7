package dev.payrelay.tools.soak;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** Prints a line every 30 s while the soak runs: orders, payments created and paid, messages. */
final class SoakProgress implements AutoCloseable {

  private static final Duration EVERY = Duration.ofSeconds(30);

  private final ScheduledExecutorService ticker =
      Executors.newSingleThreadScheduledExecutor(
          Thread.ofPlatform().daemon().name("soak-progress").factory());

  /** Starts printing to {@code out}, counting from {@code start}. */
  SoakProgress(Instant start, SoakBuyers buyers, SoakTap tap, PrintWriter out) {
    ticker.scheduleAtFixedRate(
        () -> {
          SoakBuyers.Tally t = buyers.tally();
          out.printf(
              "progress   +%ds orders %d, created %d, paid at the sandbox %d; %d event ids on the"
                  + " queue%n",
              Duration.between(start, Instant.now()).toSeconds(),
              t.orders(),
              t.created(),
              t.paid(),
              tap.deliveries().size());
          out.flush();
        },
        EVERY.toSeconds(),
        EVERY.toSeconds(),
        TimeUnit.SECONDS);
  }

  /** Stops printing. */
  @Override
  public void close() {
    ticker.shutdownNow();
  }
}

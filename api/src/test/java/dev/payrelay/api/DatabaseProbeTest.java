package dev.payrelay.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class DatabaseProbeTest {

  @Test
  void aHangingDatabase_isNotReady_withinTheWait_andConcurrentCallersShareOneProbe()
      throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger probes = new AtomicInteger();
    try (DatabaseProbe probe =
        new DatabaseProbe(
            () -> {
              probes.incrementAndGet();
              try {
                return release.await(30, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                return false;
              }
            })) {
      long started = System.nanoTime();
      assertThat(probe.upWithin(Duration.ofMillis(200))).isFalse();
      assertThat(probe.upWithin(Duration.ofMillis(200))).isFalse();
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
      assertThat(probes).as("the second caller waited on the probe in flight").hasValue(1);

      release.countDown();
      assertThat(probe.upWithin(Duration.ofSeconds(5))).isTrue();
    }
  }

  @Test
  void aFailingProbe_isNotReady_andTheNextCallProbesAgain() {
    AtomicInteger calls = new AtomicInteger();
    try (DatabaseProbe probe =
        new DatabaseProbe(
            () -> {
              if (calls.incrementAndGet() == 1) {
                throw new IllegalStateException("connection refused");
              }
              return true;
            })) {
      assertThat(probe.upWithin(Duration.ofSeconds(5))).isFalse();
      assertThat(probe.upWithin(Duration.ofSeconds(5))).isTrue();
    }
  }
}

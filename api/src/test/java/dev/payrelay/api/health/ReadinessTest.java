package dev.payrelay.api.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * How readiness judges its dependency checks: hangs, never answered, a failure within the grace.
 */
class ReadinessTest {

  private final SimpleMeterRegistry metrics = new SimpleMeterRegistry();

  @Test
  void aCheckThatHangs_isDown_andAfterTheGraceTheProcessIsNotReady_untilItAnswers()
      throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger calls = new AtomicInteger();
    DependencyCheck hangsAfterFirst =
        () -> {
          if (calls.incrementAndGet() > 1) {
            release.await(60, TimeUnit.SECONDS);
          }
        };
    try (Readiness readiness =
        Readiness.start(
            Duration.ofSeconds(1),
            Map.of("database", hangsAfterFirst),
            metrics,
            Throwable::toString)) {
      assertThat(readiness.report().ready()).isTrue();
      DependencyState down = readiness.outage("database").get(30, TimeUnit.SECONDS);
      assertThat(down.up()).isFalse();
      assertThat(down.error()).isEqualTo("no answer within 2000 ms");
      ReadinessReport report = readiness.report();
      assertThat(report.ready()).isFalse();
      assertThat(report.failing()).containsExactly("database");
      assertThat(metrics.get(Readiness.GAUGE).tag("dependency", "database").gauge().value())
          .isZero();

      release.countDown();
      await().atMost(Duration.ofSeconds(30)).until(() -> readiness.report().ready());
      assertThat(readiness.report().dependencies().get("database").error()).isNull();
    }
  }

  @Test
  void aDependencyThatNeverAnswered_isFailingFromTheStart_withItsOwnError() {
    try (Readiness readiness =
        Readiness.start(
            Duration.ofSeconds(300),
            Map.of(
                "broker",
                () -> {
                  throw new java.net.ConnectException("Connection refused");
                }),
            metrics,
            Throwable::toString)) {
      ReadinessReport report = readiness.report();
      assertThat(report.ready()).isFalse();
      assertThat(report.failing()).containsExactly("broker");
      assertThat(report.dependencies().get("broker").error())
          .isEqualTo("java.net.ConnectException: Connection refused");
    }
  }

  @Test
  void aFailureShorterThanTheGrace_keepsTheProcessReady_andSaysSo() {
    AtomicBoolean refusing = new AtomicBoolean();
    try (Readiness readiness =
        Readiness.start(
            Duration.ofSeconds(300),
            Map.of(
                "temporal",
                () -> {
                  if (refusing.get()) {
                    throw new IllegalStateException("UNAVAILABLE");
                  }
                }),
            metrics,
            Throwable::toString)) {
      refusing.set(true);
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> !readiness.report().dependencies().get("temporal").up());
      ReadinessReport report = readiness.report();
      assertThat(report.ready()).isTrue();
      assertThat(report.failing()).isEmpty();
      assertThat(report.dependencies().get("temporal").error())
          .isEqualTo("java.lang.IllegalStateException: UNAVAILABLE");
      assertThat(readiness.outage("temporal")).isNotDone();
    }
  }
}

package dev.payrelay.api.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** {@link LogRateLimiter}: so many lines per key and window, the rest counted for one summary. */
class LogRateLimiterTest {

  private final AtomicLong clock = new AtomicLong(1_000);
  private final LogRateLimiter limiter = new LogRateLimiter(3, Duration.ofSeconds(10), clock::get);

  private long logged(String key, int events) {
    return IntStream.range(0, events).filter(i -> limiter.acquire(key).log()).count();
  }

  @Test
  void aFlood_letsThroughThePermitsPerWindow_andReportsTheRestOnceInTheNextWindow() {
    assertThat(logged("BAD_SIGNATURE", 1_000)).isEqualTo(3);

    clock.addAndGet(Duration.ofSeconds(10).toNanos());
    LogRateLimiter.Permit first = limiter.acquire("BAD_SIGNATURE");
    LogRateLimiter.Permit second = limiter.acquire("BAD_SIGNATURE");

    assertThat(first).isEqualTo(new LogRateLimiter.Permit(true, 997));
    assertThat(second).isEqualTo(new LogRateLimiter.Permit(true, 0));
  }

  @Test
  void eachKey_hasItsOwnWindow() {
    assertThat(logged("BAD_SIGNATURE", 10)).isEqualTo(3);
    assertThat(logged("MALFORMED", 10)).isEqualTo(3);
  }

  @Test
  void withinTheWindow_nothingMoreIsLogged_andAQuietKeyIsNotSummarised() {
    assertThat(logged("UNKNOWN_ACCOUNT", 5)).isEqualTo(3);
    clock.addAndGet(Duration.ofSeconds(9).toNanos());
    assertThat(limiter.acquire("UNKNOWN_ACCOUNT").log()).isFalse();

    clock.addAndGet(Duration.ofSeconds(60).toNanos());
    assertThat(limiter.acquire("UNKNOWN_ACCOUNT")).isEqualTo(new LogRateLimiter.Permit(true, 3));
    clock.addAndGet(Duration.ofSeconds(60).toNanos());
    assertThat(limiter.acquire("UNKNOWN_ACCOUNT")).isEqualTo(new LogRateLimiter.Permit(true, 0));
  }

  @Test
  void noPermits_orNoWindow_isRefused() {
    assertThatThrownBy(() -> new LogRateLimiter(0, Duration.ofSeconds(10)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new LogRateLimiter(1, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
  }
}

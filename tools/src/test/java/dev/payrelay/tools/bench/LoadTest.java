package dev.payrelay.tools.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** {@link Load}'s two shapes: what they schedule and count, never how fast anything is. */
class LoadTest {

  @Test
  void openLoop_schedulesOperationIAtIOverRate_andRunsEachOnce() throws Exception {
    ConcurrentHashMap<Integer, Long> scheduled = new ConcurrentHashMap<>();

    Load.Result r = Load.run(new LoadShape(200.0, null), 5, (i, at) -> scheduled.put(i, at));

    assertThat(scheduled).hasSize(5);
    for (int i = 1; i < 5; i++) {
      // 1e9 / 200 ns apart: the schedule is fixed in advance, not paced by completions.
      assertThat(scheduled.get(i) - scheduled.get(0)).isEqualTo(i * 5_000_000L);
    }
    assertThat(r.latencyMicros().getTotalCount()).isEqualTo(5);
    assertThat(r.errors()).isZero();
  }

  @Test
  void openLoop_startsLaterOperationsWhileAnEarlierOneIsStuck() throws Exception {
    CountDownLatch lastStarted = new CountDownLatch(1);
    AtomicInteger unblocked = new AtomicInteger();

    Load.Result r =
        Load.run(
            new LoadShape(1000.0, null),
            4,
            (i, at) -> {
              if (i == 0 && lastStarted.await(30, TimeUnit.SECONDS)) {
                unblocked.incrementAndGet();
              }
              if (i == 3) {
                lastStarted.countDown();
              }
            });

    // Closed loop with one caller would have waited 30 s and not counted this.
    assertThat(unblocked).hasValue(1);
    assertThat(r.latencyMicros().getTotalCount()).isEqualTo(4);
  }

  @Test
  void closedLoop_runsEveryIndexOnce_withAtMostCallersAtATime() throws Exception {
    ConcurrentHashMap<Integer, Integer> runs = new ConcurrentHashMap<>();
    AtomicInteger inFlight = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();

    Load.Operation run =
        (i, at) -> {
          most.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
          runs.merge(i, 1, Integer::sum);
          Thread.sleep(1);
          inFlight.decrementAndGet();
        };
    Load.Result r = Load.run(new LoadShape(null, 3), 50, run);

    assertThat(runs).hasSize(50).allSatisfy((i, n) -> assertThat(n).isEqualTo(1));
    assertThat(most.get()).isBetween(1, 3);
    assertThat(r.latencyMicros().getTotalCount()).isEqualTo(50);
  }

  @Test
  void failedOperations_areCountedWithTheFirstFailure_andStillTimed() throws Exception {
    Load.Result r =
        Load.run(
            new LoadShape(null, 1),
            3,
            (i, at) -> {
              if (i > 0) {
                throw new IllegalStateException("refused " + i);
              }
            });

    assertThat(r.errors()).isEqualTo(2);
    assertThat(r.firstError()).contains("refused 1");
    assertThat(r.latencyMicros().getTotalCount()).isEqualTo(3);
  }

  @Test
  void aShape_needsExactlyOneOfRateAndCallers() {
    assertThatThrownBy(() -> new LoadShape(null, null)).hasMessageContaining("exactly one");
    assertThatThrownBy(() -> new LoadShape(5.0, 2)).hasMessageContaining("exactly one");
    assertThatThrownBy(() -> new LoadShape(0.0, null)).hasMessageContaining("--rate");
    assertThatThrownBy(() -> new LoadShape(null, 0)).hasMessageContaining("--callers");
  }
}

package dev.payrelay.app.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The hand-off window's bookkeeping on a clock the test moves (its interceptor: e2e). */
class HandoffWindowTest {

  private final AtomicLong now = new AtomicLong(1_000_000_000L);
  private final MeterRegistry metrics = new SimpleMeterRegistry();
  private final HandoffWindow window = new HandoffWindow(3, metrics, now::get);

  @Test
  void room_isTheSizeLessTheSlotsTaken_andNeverBelowZero() {
    assertThat(window.room()).isEqualTo(3);
    window.reserve("e1");
    window.reserve("e2");
    assertThat(window.room()).isEqualTo(1);
    window.reserve("e3");
    window.reserve("e4");
    assertThat(window.room()).isZero();
    assertThat(metrics.get("payrelay.outbox.handoff.window").gauge().value()).isEqualTo(4);
  }

  @Test
  void release_givesBackASlotOnce_asNotSent() {
    window.reserve("e1");
    window.release("e1");
    window.release("e1");
    window.release("never-taken");
    assertThat(window.room()).isEqualTo(3);
    assertThat(freed("not_sent")).isEqualTo(1);
  }

  @Test
  void aSlotExpires_atTheStickyTimeout_notBefore() {
    window.reserve("e1");
    advance(HandoffWindow.EXPIRY.minusMillis(1));
    assertThat(window.room()).isEqualTo(2);
    advance(Duration.ofMillis(1));
    assertThat(window.room()).isEqualTo(3);
    assertThat(freed("expired")).isEqualTo(1);
  }

  @Test
  void aSlotsExpiry_startsAgainWhenTemporalAcceptedItsHandOff() {
    window.reserve("slow-call");
    advance(HandoffWindow.EXPIRY.minusSeconds(1));
    window.sent("slow-call");
    advance(Duration.ofSeconds(2));
    assertThat(window.room()).as("2 s after it was accepted").isEqualTo(2);
    advance(HandoffWindow.EXPIRY);
    assertThat(window.room()).isEqualTo(3);
    window.sent("slow-call");
    assertThat(window.room()).as("sent after it was freed takes no slot").isEqualTo(3);
  }

  @Test
  void sweep_freesOldSlotsWhoseRowsNoLongerWait_andAsksAboutNothingElse() {
    List<Collection<String>> asked = new ArrayList<>();
    window.reserve("sent-elsewhere");
    window.reserve("still-dispatched");
    advance(Duration.ofMillis(HandoffWindow.SWEEP_AGE_MILLIS));
    window.reserve("young");
    window.sweep(
        ids -> {
          asked.add(Set.copyOf(ids));
          return Set.of("still-dispatched");
        });
    assertThat(asked).containsExactly(Set.of("sent-elsewhere", "still-dispatched"));
    assertThat(window.room()).isEqualTo(1);
    assertThat(freed("confirmed")).isEqualTo(1);
  }

  @Test
  void sweep_readsAtMostEvery200Ms_andNotWhenNoSlotIsOld() {
    List<Collection<String>> asked = new ArrayList<>();
    advance(Duration.ofMillis(HandoffWindow.SWEEP_EVERY_MILLIS));
    window.reserve("young");
    window.sweep(ids -> record(asked, ids));
    assertThat(asked).as("no slot held 200 ms yet").isEmpty();
    advance(Duration.ofMillis(HandoffWindow.SWEEP_AGE_MILLIS));
    window.sweep(ids -> record(asked, ids));
    window.sweep(ids -> record(asked, ids));
    assertThat(asked).as("the second sweep came too soon").hasSize(1);
  }

  @Test
  void awaitRoom_returnsAtOnceWithRoom_andGivesUpWithoutEnough() throws Exception {
    HandoffWindow real = new HandoffWindow(2, new SimpleMeterRegistry());
    assertThat(real.awaitRoom(2, Duration.ofSeconds(5))).isTrue();
    real.reserve("e1");
    long start = System.nanoTime();
    assertThat(real.awaitRoom(2, Duration.ofMillis(120))).as("room for 1 of 2").isFalse();
    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isGreaterThan(100);
    Thread.ofVirtual().start(() -> sleepThenRelease(real));
    assertThat(real.awaitRoom(2, Duration.ofSeconds(5))).isTrue();
  }

  @Test
  void aWindowBelowOneSlot_isRefused() {
    assertThatThrownBy(() -> new HandoffWindow(0, metrics))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 1");
  }

  private static Set<String> record(List<Collection<String>> asked, Collection<String> ids) {
    asked.add(Set.copyOf(ids));
    return Set.of();
  }

  private static void sleepThenRelease(HandoffWindow window) {
    try {
      Thread.sleep(50);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    window.release("e1");
  }

  private void advance(Duration d) {
    now.addAndGet(d.toNanos());
  }

  private double freed(String by) {
    return metrics.get("payrelay.outbox.handoff.window.freed").tag("by", by).counter().count();
  }
}

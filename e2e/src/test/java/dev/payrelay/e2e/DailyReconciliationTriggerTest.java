package dev.payrelay.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.jobs.DailyReconciliation;
import dev.payrelay.app.jobs.DailyReconciliationTrigger;
import dev.payrelay.app.temporal.TemporalConnection;
import dev.payrelay.workflows.activities.DailyReconciliationActivities;
import dev.payrelay.workflows.activities.DailyStartResult;
import dev.payrelay.workflows.activities.ReconciliationDay;
import io.temporal.testserver.TestServer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Where Temporal Schedules are unsupported the worker falls back to the hourly tick, which calls
 * the Schedule's own activity implementation (here a recording stand-in). The Schedule path itself
 * is {@link ReconciliationScheduleTest}, on the real server.
 */
class DailyReconciliationTriggerTest {

  private static final List<String> CHANNELS = List.of("sandbox");

  private final RecordingStarts starts = new RecordingStarts();

  @Test
  void inMemoryServer_runsTheTick_whichStartsYesterdayThroughTheSameActivity() throws Exception {
    PayrelayConfig.TemporalSettings settings =
        settings(Map.of("PAYRELAY_TEMPORAL_IN_MEMORY", "true"));
    try (TemporalConnection temporal = TemporalConnection.open(settings);
        DailyReconciliationTrigger trigger =
            DailyReconciliationTrigger.start(true, temporal, starts, CHANNELS)) {
      assertThat(temporal.kind()).isEqualTo(TemporalConnection.Kind.IN_MEMORY);
      assertThat(trigger.mode()).isEqualTo(DailyReconciliationTrigger.Mode.TICK);
      await().atMost(Duration.ofSeconds(10)).until(() -> !starts.days.isEmpty());
      assertThat(starts.days.getFirst().channel()).isEqualTo("sandbox");
      assertThat(starts.days.getFirst().date())
          .isIn(
              LocalDate.now(ZoneOffset.UTC).minusDays(1).toString(),
              LocalDate.now(ZoneOffset.UTC).minusDays(2).toString());
    }
  }

  @Test
  void serverAnsweringUnimplemented_fallsBackToTheTick() throws Exception {
    // The Java test server, reached as an external frontend, has no Schedules API.
    int port = PayrelayHarness.freePort();
    try (AutoCloseable server = TestServer.createPortBoundServer(port);
        TemporalConnection temporal =
            TemporalConnection.client(
                settings(Map.of("PAYRELAY_TEMPORAL_ADDRESS", "127.0.0.1:" + port)));
        DailyReconciliationTrigger trigger =
            DailyReconciliationTrigger.start(true, temporal, starts, CHANNELS)) {
      assertThat(temporal.kind()).isEqualTo(TemporalConnection.Kind.EXTERNAL);
      assertThat(trigger.mode()).isEqualTo(DailyReconciliationTrigger.Mode.TICK);
      await().atMost(Duration.ofSeconds(10)).until(() -> !starts.days.isEmpty());
    }
  }

  @Test
  void turnedOff_keepsNeitherScheduleNorTick() throws Exception {
    try (TemporalConnection temporal =
            TemporalConnection.client(
                settings(Map.of("PAYRELAY_TEMPORAL_ADDRESS", "127.0.0.1:9")));
        DailyReconciliationTrigger trigger =
            DailyReconciliationTrigger.start(false, temporal, starts, CHANNELS)) {
      assertThat(trigger.mode()).isEqualTo(DailyReconciliationTrigger.Mode.OFF);
    }
  }

  @Test
  void tick_startsYesterdayUtcForEveryChannel_evenAfterOneFails() {
    Clock justAfterMidnight = Clock.fixed(Instant.parse("2026-03-12T00:10:00Z"), ZoneOffset.UTC);
    RecordingStarts failingFirst = new RecordingStarts("broken");

    new DailyReconciliation(failingFirst, List.of("broken", "sandbox"), justAfterMidnight).tick();

    assertThat(failingFirst.days)
        .containsExactly(
            new ReconciliationDay("broken", "2026-03-11"),
            new ReconciliationDay("sandbox", "2026-03-11"));
  }

  private static PayrelayConfig.TemporalSettings settings(Map<String, String> env)
      throws Exception {
    Map<String, String> all = new java.util.HashMap<>(env);
    all.put("PAYRELAY_TEMPORAL_PORT", String.valueOf(PayrelayHarness.freePort()));
    return PayrelayConfig.fromEnv(all).temporal();
  }

  /** Records each day asked for; fails for one channel, as an unreachable Temporal would. */
  private static final class RecordingStarts implements DailyReconciliationActivities {
    final List<ReconciliationDay> days = new CopyOnWriteArrayList<>();
    private final String failing;

    RecordingStarts() {
      this(null);
    }

    RecordingStarts(String failing) {
      this.failing = failing;
    }

    @Override
    public DailyStartResult startDay(ReconciliationDay day) {
      days.add(day);
      if (day.channel().equals(failing)) {
        throw new IllegalStateException("Temporal unreachable");
      }
      return new DailyStartResult(
          "recon-" + day.channel() + "-" + day.date(), day.date(), true, false);
    }
  }
}

package dev.payrelay.api.health;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A process's readiness, from background checks of what it needs: each dependency's {@link
 * DependencyCheck} runs every {@link #PROBE_EVERY}, and the process is ready while each one
 * answered since start and none has failed for longer than the grace. {@code /health/ready} reads
 * the last results ({@link #report()}) and never waits for a dependency. Each dependency's state is
 * also the gauge {@code payrelay_dependency_up{dependency}} (1 up, 0 down).
 *
 * <p>The grace keeps a single lost round trip (a restart of the broker, a failover of the database)
 * from taking a process out of service; the report says since when each dependency fails and with
 * which error, so an operator reads why without the logs.
 */
public final class Readiness implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(Readiness.class);

  /** The pause between two checks of one dependency. */
  public static final Duration PROBE_EVERY = Duration.ofSeconds(1);

  /** How long one check may take before it counts as a failure. */
  public static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);

  /** The gauge's name (Prometheus: {@code payrelay_dependency_up}). */
  public static final String GAUGE = "payrelay.dependency.up";

  private final Duration grace;
  private final Clock clock;
  private final Map<String, DependencyWatch> watches = new LinkedHashMap<>();
  private final Map<String, CompletableFuture<DependencyState>> outages = new ConcurrentHashMap<>();
  private final Map<String, Boolean> reportedFailing = new ConcurrentHashMap<>();
  private final List<Meter> gauges = new ArrayList<>();
  private final MeterRegistry metrics;
  private final ScheduledExecutorService ticker =
      Executors.newSingleThreadScheduledExecutor(
          Thread.ofPlatform().name("payrelay-readiness").daemon().factory());

  private Readiness(Duration grace, MeterRegistry metrics, Clock clock) {
    this.grace = grace;
    this.metrics = metrics;
    this.clock = clock;
  }

  /**
   * Checks each dependency once (waiting at most {@link #PROBE_TIMEOUT} for all of them), so the
   * first {@code /health/ready} already tells the truth, then every {@link #PROBE_EVERY}.
   *
   * @param grace how long a dependency may fail before the process is not ready; positive
   * @param checks the dependencies by name ({@code database}, {@code broker}, {@code temporal}), in
   *     the order reports list them; none is allowed (always ready)
   * @param metrics where the gauges go
   * @param describe a failure's own text, as the report shows it
   * @throws IllegalArgumentException for a grace that is not positive
   */
  public static Readiness start(
      Duration grace,
      Map<String, DependencyCheck> checks,
      MeterRegistry metrics,
      Function<Throwable, String> describe) {
    if (grace.isNegative() || grace.isZero()) {
      throw new IllegalArgumentException("the readiness grace must be positive, got: " + grace);
    }
    Readiness readiness = new Readiness(grace, metrics, Clock.systemUTC());
    checks.forEach(
        (name, check) -> {
          DependencyWatch watch = new DependencyWatch(name, check, describe, readiness.clock);
          readiness.watches.put(name, watch);
          readiness.gauges.add(
              Gauge.builder(GAUGE, watch, w -> w.state().up() ? 1 : 0)
                  .tag("dependency", name)
                  .description("1 while the dependency answered its last readiness check, else 0")
                  .register(metrics));
        });
    readiness.firstRound();
    readiness.ticker.scheduleWithFixedDelay(
        readiness::tick, PROBE_EVERY.toMillis(), PROBE_EVERY.toMillis(), TimeUnit.MILLISECONDS);
    return readiness;
  }

  private void firstRound() {
    List<Future<?>> first = watches.values().stream().map(DependencyWatch::probe).toList();
    long deadline = System.nanoTime() + PROBE_TIMEOUT.toNanos();
    for (Future<?> f : first) {
      try {
        f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (Exception e) {
        // A check that failed recorded its failure; one still running is judged on the next tick.
      }
    }
  }

  private void tick() {
    try {
      watches.values().forEach(DependencyWatch::probe);
      Instant now = clock.instant();
      watches.forEach(
          (name, watch) -> {
            boolean failing = watch.failing(now, grace);
            if (failing && reportedFailing.put(name, true) == null) {
              DependencyState s = watch.state();
              log.warn("not ready: {} fails since {}: {}", name, s.since(), s.error());
              outages.computeIfAbsent(name, n -> new CompletableFuture<>()).complete(s);
            } else if (!failing) {
              reportedFailing.remove(name);
            }
          });
    } catch (RuntimeException e) {
      log.warn("readiness round failed: {}", e.toString());
    }
  }

  /** Every dependency's last state and whether the process is ready now. */
  public ReadinessReport report() {
    Instant now = clock.instant();
    Map<String, DependencyState> states = new LinkedHashMap<>();
    List<String> failing = new ArrayList<>();
    watches.forEach(
        (name, watch) -> {
          states.put(name, watch.state());
          if (watch.failing(now, grace)) {
            failing.add(name);
          }
        });
    return new ReadinessReport(failing.isEmpty(), grace.toSeconds(), List.copyOf(failing), states);
  }

  /**
   * Completes, with its state then, the first time {@code dependency} has failed for longer than
   * the grace (e.g. {@code payrelay dev} stops when the Temporal server it uses is gone).
   *
   * @throws IllegalArgumentException when no such dependency is checked here
   */
  public CompletableFuture<DependencyState> outage(String dependency) {
    if (!watches.containsKey(dependency)) {
      throw new IllegalArgumentException("readiness does not check " + dependency);
    }
    return outages.computeIfAbsent(dependency, n -> new CompletableFuture<>());
  }

  /** Stops checking and removes the gauges. */
  @Override
  public void close() {
    ticker.shutdownNow();
    watches.values().forEach(DependencyWatch::close);
    gauges.forEach(metrics::remove);
  }
}

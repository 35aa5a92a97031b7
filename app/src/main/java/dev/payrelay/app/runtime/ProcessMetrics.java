package dev.payrelay.app.runtime;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.List;

/**
 * The meter registry of one payrelay process ({@code api}, {@code worker} or {@code dev}), scraped
 * at {@code /metrics}, with what every JVM service is expected to expose bound once here:
 *
 * <ul>
 *   <li>Micrometer's JVM and process binders: {@code jvm_memory_*}, {@code jvm_gc_*}, {@code
 *       jvm_threads_*}, {@code jvm_classes_*}, {@code system_cpu_*} and {@code process_cpu_*},
 *       {@code process_uptime_seconds} and {@code process_start_time_seconds}, {@code
 *       process_files_open_files} and {@code process_files_max_files};
 *   <li>the Temporal SDK's timers ({@code temporal_*}, which the SDK's {@code
 *       MicrometerClientStatsReporter} registers with Micrometer's percentile histogram, 69 buckets
 *       per series) bounded to {@link #TEMPORAL_BUCKETS}, the buckets the dashboard's and the alert
 *       rules' {@code histogram_quantile} read.
 * </ul>
 *
 * <p>The API's HTTP request metrics are bound where its listeners are built ({@code ApiServer}).
 * {@link #close()} unregisters the GC notification listeners; the registry itself stays readable.
 */
public final class ProcessMetrics implements AutoCloseable {

  /**
   * The bucket bounds of every {@code temporal_*} timer: 5 ms to 60 s. The alert on workflow task
   * schedule-to-start p99 is at 5 s (docs/operations.md "Metrics"), activity timeouts are up to 30
   * s, and a long poll lasts 60 s; what takes longer is counted in {@code +Inf}.
   */
  public static final List<Duration> TEMPORAL_BUCKETS =
      List.of(
          Duration.ofMillis(5),
          Duration.ofMillis(10),
          Duration.ofMillis(25),
          Duration.ofMillis(50),
          Duration.ofMillis(100),
          Duration.ofMillis(250),
          Duration.ofMillis(500),
          Duration.ofSeconds(1),
          Duration.ofMillis(2500),
          Duration.ofSeconds(5),
          Duration.ofSeconds(10),
          Duration.ofSeconds(30),
          Duration.ofSeconds(60));

  /** The prefix of the Temporal SDK's meter names (Temporal SDK metrics reference). */
  public static final String TEMPORAL_PREFIX = "temporal_";

  private final PrometheusMeterRegistry registry;
  private final JvmGcMetrics gc;

  private ProcessMetrics(PrometheusMeterRegistry registry, JvmGcMetrics gc) {
    this.registry = registry;
    this.gc = gc;
  }

  /** A new registry with the Temporal bucket filter in place and the JVM and process binders. */
  public static ProcessMetrics start() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    // Before any meter exists: a filter configures only meters registered after it.
    registry.config().meterFilter(temporalBuckets());
    new JvmMemoryMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    new FileDescriptorMetrics().bindTo(registry);
    JvmGcMetrics gc = new JvmGcMetrics();
    gc.bindTo(registry);
    return new ProcessMetrics(registry, gc);
  }

  /** The process's registry. */
  public PrometheusMeterRegistry registry() {
    return registry;
  }

  /**
   * For {@code temporal_*} timers: {@link #TEMPORAL_BUCKETS} as explicit buckets (Micrometer's
   * service level objectives), percentile histogram off; every other meter as configured.
   */
  static MeterFilter temporalBuckets() {
    double[] bounds =
        TEMPORAL_BUCKETS.stream().mapToDouble(bucket -> (double) bucket.toNanos()).toArray();
    return new MeterFilter() {
      @Override
      public DistributionStatisticConfig configure(
          Meter.Id id, DistributionStatisticConfig config) {
        if (id.getType() != Meter.Type.TIMER || !id.getName().startsWith(TEMPORAL_PREFIX)) {
          return config;
        }
        return DistributionStatisticConfig.builder()
            .percentilesHistogram(false)
            .serviceLevelObjectives(bounds)
            .build()
            .merge(config);
      }
    };
  }

  @Override
  public void close() {
    gc.close();
  }
}

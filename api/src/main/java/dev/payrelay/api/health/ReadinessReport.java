package dev.payrelay.api.health;

import java.util.List;
import java.util.Map;

/**
 * The body of {@code /health/ready}, e.g. {@code {"ready":false,"graceSeconds":10,
 * "failing":["temporal"],"dependencies":{"database":{"up":true,"since":"2026-12-02T00:01:02Z"},
 * "temporal":{"up":false,"since":"2026-12-02T00:03:04Z","error":"StatusRuntimeException:
 * UNAVAILABLE: ..."}}}}.
 *
 * @param ready whether no dependency is {@code failing}
 * @param graceSeconds how long a dependency may fail before it makes the process not ready
 * @param failing the dependencies that make it not ready: down for longer than the grace, or never
 *     answered since the process started; in the order they were given
 * @param dependencies every dependency's state by name, in the order they were given
 */
public record ReadinessReport(
    boolean ready,
    long graceSeconds,
    List<String> failing,
    Map<String, DependencyState> dependencies) {}

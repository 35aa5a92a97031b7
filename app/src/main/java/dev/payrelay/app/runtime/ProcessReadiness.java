package dev.payrelay.app.runtime;

import dev.payrelay.amqp.AmqpConfig;
import dev.payrelay.amqp.BrokerProbe;
import dev.payrelay.api.health.DependencyCheck;
import dev.payrelay.api.health.Readiness;
import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.temporal.TemporalConnection;
import dev.payrelay.domain.failure.FailureText;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What each process kind needs to be ready ({@link Readiness}, grace {@code
 * PAYRELAY_READINESS_GRACE}):
 *
 * <ul>
 *   <li>{@code api}: the {@code database} alone. Taking callbacks needs nothing else (DESIGN.md,
 *       "Ingestion depends on the database alone"), so a Temporal or RabbitMQ outage must not take
 *       the API out of a load balancer; what it sends to Temporal (admin signals, listings) answers
 *       503 on its own when Temporal is away
 *   <li>{@code worker}: the {@code database} (its delivery pool), the {@code broker} (events are
 *       published and consumed there) and {@code temporal} (every workflow and activity runs there)
 *   <li>{@code dev}: the same three, since it is both
 * </ul>
 */
public final class ProcessReadiness {

  /** The dependency names, as in reports and the gauge's {@code dependency} tag. */
  static final String DATABASE = "database";

  static final String BROKER = "broker";
  public static final String TEMPORAL = "temporal";

  private ProcessReadiness() {}

  /** The {@code api} process's readiness: its database. */
  static Readiness api(PayrelayConfig config, Services services) {
    return start(config, services, database(services));
  }

  /**
   * The readiness of a process that runs workers ({@code worker}, {@code dev}): {@code database}
   * through {@code services}' pool, {@code broker} on a connection of its own named {@code
   * payrelay-<owner>-readiness}, {@code temporal} on {@code temporal}'s channel.
   */
  public static Readiness worker(
      PayrelayConfig config, Services services, TemporalConnection temporal, String owner) {
    Map<String, DependencyCheck> checks = database(services);
    PayrelayConfig.AmqpSettings amqp = config.amqp();
    BrokerProbe broker =
        new BrokerProbe(
            new AmqpConfig(
                amqp.uri(),
                amqp.exchange(),
                Readiness.PROBE_TIMEOUT,
                1,
                "payrelay-" + owner + "-readiness"));
    checks.put(
        BROKER,
        new DependencyCheck() {
          @Override
          public void check() throws Exception {
            broker.check();
          }

          @Override
          public void close() {
            broker.close();
          }
        });
    checks.put(TEMPORAL, () -> temporal.checkReachable(Readiness.PROBE_TIMEOUT));
    return start(config, services, checks);
  }

  private static Map<String, DependencyCheck> database(Services services) {
    Map<String, DependencyCheck> checks = new LinkedHashMap<>();
    checks.put(DATABASE, services::checkDatabase);
    return checks;
  }

  private static Readiness start(
      PayrelayConfig config, Services services, Map<String, DependencyCheck> checks) {
    return Readiness.start(
        config.operations().readinessGrace(), checks, services.metrics(), FailureText::of);
  }
}

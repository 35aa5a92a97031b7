package dev.payrelay.e2e;

import dev.payrelay.ledger.testing.TestDatabase;
import java.util.HashMap;
import java.util.Map;

/**
 * The settings of a worker that only delivers a test class's outbox: its database, its exchange
 * with one queue bound to every payment event, no consumers (their queues would outlive the class),
 * its own Temporal namespace on the test JVM's server, no channel queries for an hour (the payments
 * are never paid) and no daily reconciliation.
 */
final class DeliveryEnv {

  private DeliveryEnv() {}

  /**
   * Mutable, so a test adds its own settings.
   *
   * @param queue bound to {@code exchange} for {@code payment.#}
   */
  static Map<String, String> of(Class<?> owner, TestDatabase db, String exchange, String queue) {
    Map<String, String> env = new HashMap<>();
    env.put("PAYRELAY_DB_URL", db.config().jdbcUrl());
    env.put("PAYRELAY_DB_USER", db.config().user());
    env.put("PAYRELAY_DB_PASSWORD", db.config().password());
    env.put("PAYRELAY_AMQP_EXCHANGE", exchange);
    env.put("PAYRELAY_CONSUMER_NOTIFICATIONS", "false");
    env.put("PAYRELAY_CONSUMER_ENTITLEMENTS", "false");
    env.put("PAYRELAY_AMQP_QUEUES", queue + "=payment.#");
    env.putAll(RealTemporal.env(owner));
    env.put("PAYRELAY_QUERY_GRACE", "1h");
    env.put("PAYRELAY_RECONCILIATION_DAILY", "false");
    return env;
  }
}

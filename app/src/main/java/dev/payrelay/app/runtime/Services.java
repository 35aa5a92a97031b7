package dev.payrelay.app.runtime;

import dev.payrelay.app.config.Sizing;
import dev.payrelay.domain.crash.CrashPoints;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.ledger.db.Database;
import dev.payrelay.ledger.db.DatabaseConfig;
import dev.payrelay.ledger.inbox.WebhookInboxStore;
import dev.payrelay.ledger.operator.PaymentResolutions;
import dev.payrelay.ledger.outbox.DeadEvents;
import dev.payrelay.ledger.outbox.OutboxStore;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.payment.EntitlementStore;
import dev.payrelay.ledger.payment.PaymentDeadlines;
import dev.payrelay.ledger.payment.PaymentLedger;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.ledger.reconciliation.Reconciliation;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * The database-backed collaborators of one process role, built once over that role's pool: the
 * API's ingestion pool or the worker's delivery pool ({@link Sizing}). In {@code dev} both roles
 * run in one process, each with its own {@code Services} and pool, sharing one meter registry.
 *
 * @param database the pool
 * @param payments payment attempts
 * @param ledger the callback confirm transaction
 * @param outbox outbox claims and write-backs
 * @param inbox the webhook inbox
 * @param entitlements grants
 * @param resolutions operator resolutions, audited
 * @param deadEvents operator replay and discard of DEAD events, audited
 * @param deadlines payment expiry and deadline extensions
 * @param reconciliation statement reconciliation items and runs
 * @param metrics the process's meter registry, scraped at {@code /metrics}
 * @param crashPoints where this process halts on request ({@code PAYRELAY_CRASH_AT}); none by
 *     default
 */
public record Services(
    Database database,
    PaymentStore payments,
    PaymentLedger ledger,
    OutboxStore outbox,
    WebhookInboxStore inbox,
    EntitlementStore entitlements,
    PaymentResolutions resolutions,
    DeadEvents deadEvents,
    PaymentDeadlines deadlines,
    Reconciliation reconciliation,
    PrometheusMeterRegistry metrics,
    CrashPoints crashPoints)
    implements AutoCloseable {

  /**
   * The query timeout of {@link #checkDatabase}, in seconds: a trivial query takes milliseconds.
   */
  static final int CHECK_TIMEOUT_SECONDS = 2;

  /** Builds the stores over an open database, with a meter registry of their own. */
  public static Services over(Database database) {
    return over(database, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
  }

  /** Builds the stores over an open database, recording metrics in {@code metrics}. */
  public static Services over(Database database, PrometheusMeterRegistry metrics) {
    return over(database, metrics, CrashPoints.none());
  }

  /** As {@link #over(Database, PrometheusMeterRegistry)}, armed with {@code crashPoints}. */
  public static Services over(
      Database database, PrometheusMeterRegistry metrics, CrashPoints crashPoints) {
    if (crashPoints.armed()) {
      org.slf4j.LoggerFactory.getLogger(Services.class)
          .warn(
              "PAYRELAY_CRASH_AT={}: this process halts (exit {}) at that crash point",
              crashPoints,
              CrashPoints.HALT_STATUS);
    }
    OutboxWriter writer = new OutboxWriter(new EventJson());
    PaymentStore payments = new PaymentStore(database.dsl(), writer);
    return new Services(
        database,
        payments,
        new PaymentLedger(database.dsl(), payments, writer, crashPoints),
        new OutboxStore(database.dsl()),
        new WebhookInboxStore(database.dsl()),
        new EntitlementStore(database.dsl(), payments),
        new PaymentResolutions(database.dsl(), payments, writer),
        new DeadEvents(database.dsl()),
        new PaymentDeadlines(database.dsl(), writer),
        new Reconciliation(database.dsl(), payments, writer),
        metrics,
        crashPoints);
  }

  /**
   * Opens {@code config}'s pool, its {@code hikaricp_*} metrics in {@code metrics}, and builds the
   * stores over it.
   *
   * @throws dev.payrelay.ledger.db.DatabaseUnavailableException if the database cannot be reached
   */
  public static Services open(DatabaseConfig config, PrometheusMeterRegistry metrics) {
    return open(config, metrics, CrashPoints.none());
  }

  /** As {@link #open(DatabaseConfig, PrometheusMeterRegistry)}, armed with {@code crashPoints}. */
  public static Services open(
      DatabaseConfig config, PrometheusMeterRegistry metrics, CrashPoints crashPoints) {
    return over(Database.open(config, metrics), metrics, crashPoints);
  }

  /**
   * Runs {@code SELECT 1} on the pool, the statement bounded by {@link #CHECK_TIMEOUT_SECONDS}
   * (JDBC's query timeout); borrowing the connection is bounded by the pool's own timeout.
   *
   * @throws org.jooq.exception.DataAccessException with the driver's or the pool's error when the
   *     database did not answer
   */
  public void checkDatabase() {
    database.dsl().selectOne().queryTimeout(CHECK_TIMEOUT_SECONDS).fetch();
  }

  @Override
  public void close() {
    database.close();
  }
}

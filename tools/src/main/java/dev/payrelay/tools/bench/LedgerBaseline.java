package dev.payrelay.tools.bench;

import dev.payrelay.ledger.db.DatabaseConfig;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * Baseline (a): the bare ledger transaction a callback commits (DESIGN invariant 3, {@code
 * PaymentLedger}): {@code UPDATE} the payment row from PENDING to PAID where amount and currency
 * match, and only when one row changed {@code INSERT} the outbox event, then commit — in a JDBC
 * loop on a scratch database: the transaction alone, the floor under what a callback costs. Open
 * loop uses a pool of {@value BaselineBench#OPEN_LOOP_POOL} connections (payrelay's default pool
 * size); closed loop one per caller.
 */
final class LedgerBaseline implements BaselineBench {

  private static final String[] DDL = {
    "CREATE TABLE payment_order (payment_id VARCHAR(64) NOT NULL PRIMARY KEY,"
        + " status VARCHAR(16) NOT NULL, amount_minor BIGINT NOT NULL, currency CHAR(3) NOT NULL,"
        + " channel_txn_id VARCHAR(128) NULL, paid_at DATETIME(6) NULL,"
        + " version INT NOT NULL DEFAULT 0,"
        + " updated_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),"
        + " CONSTRAINT uk_txn UNIQUE (channel_txn_id))",
    "CREATE TABLE outbox_event (event_id CHAR(36) NOT NULL PRIMARY KEY,"
        + " seq BIGINT NOT NULL AUTO_INCREMENT UNIQUE, aggregate_id VARCHAR(64) NOT NULL,"
        + " event_type VARCHAR(64) NOT NULL, routing_key VARCHAR(128) NOT NULL,"
        + " payload MEDIUMTEXT NOT NULL, status VARCHAR(16) NOT NULL,"
        + " next_attempt_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),"
        + " created_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),"
        + " CONSTRAINT uk_fact UNIQUE (aggregate_id, event_type))",
    "CREATE INDEX ix_claim ON outbox_event (status, next_attempt_at, seq)"
  };

  private static final String CONFIRM =
      "UPDATE payment_order SET status = 'PAID', channel_txn_id = ?, paid_at = NOW(6),"
          + " version = version + 1, updated_at = NOW(6)"
          + " WHERE payment_id = ? AND status = 'PENDING' AND amount_minor = ? AND currency = ?";

  private static final String ANNOUNCE =
      "INSERT INTO outbox_event (event_id, aggregate_id, event_type, routing_key, payload, status)"
          + " VALUES (?, ?, 'PaymentConfirmed', 'payment.confirmed', ?, 'PENDING')";

  private final DatabaseConfig server;

  LedgerBaseline(DatabaseConfig server) {
    this.server = server;
  }

  @Override
  public String name() {
    return "ledger";
  }

  @Override
  public List<String> servers() {
    return List.of("mariadb");
  }

  @Override
  public BenchResult.Baseline run(LoadShape shape, int count, int warmup, CpuMeter meter)
      throws Exception {
    try (ScratchDatabase db = new ScratchDatabase(server, BaselineBench.pool(shape), DDL)) {
      insertPending(db.dataSource(), count + warmup);
      Load.Result r =
          BaselineBench.warmedUp(
              shape, count, warmup, meter, (i, at) -> confirm(db.dataSource(), i));
      return BenchResult.Baseline.of(
          name(), "UPDATE payment PENDING→PAID + INSERT outbox event, one commit", r);
    }
  }

  private static void insertPending(DataSource ds, int count) throws SQLException {
    try (Connection c = ds.getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "INSERT INTO payment_order (payment_id, status, amount_minor, currency)"
                    + " VALUES (?, 'PENDING', ?, ?)")) {
      for (int i = 0; i < count; i++) {
        s.setString(1, "p-" + i);
        s.setLong(2, PayrelayClient.AMOUNT_MINOR);
        s.setString(3, PayrelayClient.CURRENCY);
        s.addBatch();
      }
      s.executeBatch();
    }
  }

  private static void confirm(DataSource ds, int i) throws SQLException {
    try (Connection c = ds.getConnection()) {
      c.setAutoCommit(false);
      try (PreparedStatement update = c.prepareStatement(CONFIRM);
          PreparedStatement insert = c.prepareStatement(ANNOUNCE)) {
        update.setString(1, "sbx_" + i);
        update.setString(2, "p-" + i);
        update.setLong(3, PayrelayClient.AMOUNT_MINOR);
        update.setString(4, PayrelayClient.CURRENCY);
        if (update.executeUpdate() != 1) {
          throw new SQLException("payment p-" + i + " was not PENDING");
        }
        insert.setString(1, UUID.randomUUID().toString());
        insert.setString(2, "p-" + i);
        insert.setString(3, "{\"paymentId\":\"p-" + i + "\",\"amountMinor\":1999}");
        insert.executeUpdate();
        c.commit();
      } catch (SQLException e) {
        c.rollback();
        throw e;
      }
    }
  }
}

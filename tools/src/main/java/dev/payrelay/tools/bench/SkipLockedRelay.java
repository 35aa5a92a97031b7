package dev.payrelay.tools.bench;

import com.rabbitmq.client.Channel;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;

/**
 * The relay of {@link RelayBaseline}: {@code pollers} threads each loop over one transaction that
 * claims up to {@value RelayBaseline#BATCH} PENDING rows of {@code relay_outbox} with {@code SELECT
 * ... FOR UPDATE SKIP LOCKED}, publishes them on a confirming channel, waits for the confirms,
 * marks them SENT and commits. Runs from construction until {@link #close}.
 */
final class SkipLockedRelay implements AutoCloseable {

  private final DataSource ds;
  private final ScratchExchange broker;
  private final ExecutorService threads;
  private final AtomicBoolean stop = new AtomicBoolean();
  private final AtomicReference<String> error = new AtomicReference<>();

  SkipLockedRelay(DataSource ds, ScratchExchange broker, int pollers) {
    this.ds = ds;
    this.broker = broker;
    threads = Executors.newFixedThreadPool(pollers);
    for (int p = 0; p < pollers; p++) {
      threads.execute(this::poll);
    }
  }

  /** The first failure of any poller, or null. */
  String firstError() {
    return error.get();
  }

  @Override
  public void close() throws InterruptedException {
    stop.set(true);
    threads.shutdown();
    threads.awaitTermination(30, TimeUnit.SECONDS);
  }

  private void poll() {
    while (!stop.get()) {
      try {
        if (relayBatch() == 0) {
          Thread.sleep(RelayBaseline.IDLE_MS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (Exception e) {
        error.compareAndSet(null, "relay poller: " + e);
      }
    }
  }

  /** One claimed row of {@code relay_outbox}. */
  private record Row(long id, String payload) {}

  /**
   * One transaction: claim, publish and await the confirms, mark SENT, commit.
   *
   * @return how many rows it relayed; 0 when none was PENDING and unlocked
   */
  private int relayBatch() throws Exception {
    try (Connection c = ds.getConnection()) {
      c.setAutoCommit(false);
      List<Row> rows = claim(c);
      if (!rows.isEmpty()) {
        publish(rows);
        markSent(c, rows);
      }
      c.commit();
      return rows.size();
    }
  }

  /** Up to {@value RelayBaseline#BATCH} PENDING rows, locked, skipping rows others hold. */
  private static List<Row> claim(Connection c) throws SQLException {
    List<Row> rows = new ArrayList<>();
    try (PreparedStatement s =
            c.prepareStatement(
                "SELECT id, payload FROM relay_outbox WHERE status = 'PENDING' ORDER BY id"
                    + " LIMIT "
                    + RelayBaseline.BATCH
                    + " FOR UPDATE SKIP LOCKED");
        ResultSet r = s.executeQuery()) {
      while (r.next()) {
        rows.add(new Row(r.getLong(1), r.getString(2)));
      }
    }
    return rows;
  }

  /** Publishes the rows on one confirming channel, message id = row id, and awaits the confirms. */
  private void publish(List<Row> rows) throws Exception {
    Channel ch = broker.take();
    try {
      for (Row row : rows) {
        broker.publish(ch, Long.toString(row.id()), row.payload().getBytes(StandardCharsets.UTF_8));
      }
      broker.confirm(ch);
    } finally {
      broker.release(ch);
    }
  }

  private static void markSent(Connection c, List<Row> rows) throws SQLException {
    try (PreparedStatement s =
        c.prepareStatement(
            "UPDATE relay_outbox SET status = 'SENT', sent_at = NOW(6) WHERE id = ?")) {
      for (Row row : rows) {
        s.setLong(1, row.id());
        s.addBatch();
      }
      s.executeBatch();
    }
  }
}

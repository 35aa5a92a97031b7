package dev.payrelay.worker.bench;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import dev.payrelay.sql.DatabaseConfig;
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
import org.HdrHistogram.Histogram;

/**
 * Baseline (c): a plain transactional-outbox relay without Temporal. Producers insert rows into a
 * scratch outbox table at the load shape (one commit each); {@code pollers} threads each loop: in
 * one transaction claim up to {@value #BATCH} PENDING rows with {@code SELECT ... FOR UPDATE SKIP
 * LOCKED}, publish them persistent and mandatory on a confirming channel, wait for the confirms,
 * mark them SENT, commit; sleep {@value #IDLE_MS} ms when nothing was claimed. A consumer on the
 * scratch queue times each message; end to end is scheduled insert → consumed.
 */
final class RelayBaseline implements BaselineBench {

  static final int BATCH = 50;
  static final long IDLE_MS = 5;
  static final long DRAIN_MS = 60_000;

  private static final String[] DDL = {
    "CREATE TABLE relay_outbox (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,"
        + " payload VARCHAR(255) NOT NULL, status VARCHAR(16) NOT NULL,"
        + " created_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6), sent_at DATETIME(6) NULL)",
    "CREATE INDEX ix_relay_claim ON relay_outbox (status, id)"
  };

  private final DatabaseConfig server;
  private final String amqpUri;
  private final int pollers;

  RelayBaseline(DatabaseConfig server, String amqpUri, int pollers) {
    if (pollers < 1) {
      throw new IllegalArgumentException("--relay-pollers must be at least 1, was " + pollers);
    }
    this.server = server;
    this.amqpUri = amqpUri;
    this.pollers = pollers;
  }

  @Override
  public String name() {
    return "relay";
  }

  @Override
  public BenchResult.Baseline run(LoadShape shape, int count) throws Exception {
    int producers = shape.openLoop() ? LedgerBaseline.OPEN_LOOP_POOL : shape.callers();
    try (ScratchDatabase db = new ScratchDatabase(server, producers + pollers, DDL);
        ScratchExchange broker = new ScratchExchange(amqpUri, pollers)) {
      Arrivals consumed = new Arrivals();
      Channel consumer = broker.connection().createChannel();
      consumer.basicConsume(
          broker.queue(),
          true,
          new DefaultConsumer(consumer) {
            @Override
            public void handleDelivery(
                String tag, Envelope e, AMQP.BasicProperties p, byte[] body) {
              consumed.seen(new String(body, StandardCharsets.UTF_8));
            }
          });
      AtomicBoolean stop = new AtomicBoolean();
      AtomicReference<String> pollerError = new AtomicReference<>();
      ExecutorService relay = Executors.newFixedThreadPool(pollers);
      for (int p = 0; p < pollers; p++) {
        relay.execute(() -> poll(db.dataSource(), broker, stop, pollerError));
      }
      long[] scheduled = new long[count];
      Load.Result inserts =
          Load.run(
              shape,
              count,
              (i, at) -> {
                scheduled[i] = at;
                insert(db.dataSource(), i);
              });
      long deadline = System.nanoTime() + DRAIN_MS * 1_000_000;
      while (consumed.distinct() < count - inserts.errors() && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      stop.set(true);
      relay.shutdown();
      relay.awaitTermination(30, TimeUnit.SECONDS);
      consumer.close();
      return result(inserts, consumed, scheduled, pollerError.get());
    }
  }

  private BenchResult.Baseline result(
      Load.Result inserts, Arrivals consumed, long[] scheduled, String pollerError) {
    Histogram e2e = new Histogram(3_600_000_000L, 3);
    long first = Long.MAX_VALUE;
    for (int i = 0; i < scheduled.length; i++) {
      first = Math.min(first, scheduled[i]);
      Long at = consumed.firstSeen(Integer.toString(i));
      if (at != null) {
        e2e.recordValue(Math.max(0, (at - scheduled[i]) / 1000));
      }
    }
    double seconds = (consumed.lastFirstSeen() - first) / 1e9;
    return new BenchResult.Baseline(
        name(),
        "INSERT outbox row; "
            + pollers
            + " pollers claim SKIP LOCKED, publish with confirms, mark SENT",
        Bench.round(seconds > 0 ? consumed.distinct() / seconds : 0),
        Latency.ofMicros(inserts.latencyMicros()),
        Latency.ofMicros(e2e),
        inserts.errors(),
        inserts.firstError() != null ? inserts.firstError() : pollerError,
        scheduled.length - consumed.distinct());
  }

  private static void insert(DataSource ds, int i) throws SQLException {
    try (Connection c = ds.getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "INSERT INTO relay_outbox (payload, status) VALUES (?, 'PENDING')")) {
      s.setString(1, Integer.toString(i));
      s.executeUpdate();
    }
  }

  private static void poll(
      DataSource ds, ScratchExchange broker, AtomicBoolean stop, AtomicReference<String> error) {
    while (!stop.get()) {
      try {
        if (relayBatch(ds, broker) == 0) {
          Thread.sleep(IDLE_MS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (Exception e) {
        error.compareAndSet(null, "relay poller: " + e);
      }
    }
  }

  private static int relayBatch(DataSource ds, ScratchExchange broker) throws Exception {
    try (Connection c = ds.getConnection()) {
      c.setAutoCommit(false);
      List<Long> ids = new ArrayList<>();
      List<String> payloads = new ArrayList<>();
      try (PreparedStatement s =
              c.prepareStatement(
                  "SELECT id, payload FROM relay_outbox WHERE status = 'PENDING' ORDER BY id"
                      + " LIMIT "
                      + BATCH
                      + " FOR UPDATE SKIP LOCKED");
          ResultSet r = s.executeQuery()) {
        while (r.next()) {
          ids.add(r.getLong(1));
          payloads.add(r.getString(2));
        }
      }
      if (ids.isEmpty()) {
        c.commit();
        return 0;
      }
      Channel ch = broker.take();
      try {
        for (int k = 0; k < ids.size(); k++) {
          broker.publish(
              ch, Long.toString(ids.get(k)), payloads.get(k).getBytes(StandardCharsets.UTF_8));
        }
        broker.confirm(ch);
      } finally {
        broker.release(ch);
      }
      try (PreparedStatement s =
          c.prepareStatement(
              "UPDATE relay_outbox SET status = 'SENT', sent_at = NOW(6) WHERE id = ?")) {
        for (long id : ids) {
          s.setLong(1, id);
          s.addBatch();
        }
        s.executeBatch();
      }
      c.commit();
      return ids.size();
    }
  }
}

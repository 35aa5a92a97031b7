package dev.payrelay.tools.bench;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import dev.payrelay.ledger.db.DatabaseConfig;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
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
  public List<String> servers() {
    return List.of("mariadb", "rabbitmq");
  }

  @Override
  public BenchResult.Baseline run(LoadShape shape, int count, int warmup, CpuMeter meter)
      throws Exception {
    int producers = BaselineBench.pool(shape);
    try (ScratchDatabase db = new ScratchDatabase(server, producers + pollers, DDL);
        ScratchExchange broker = new ScratchExchange(amqpUri, pollers)) {
      Arrivals consumed = new Arrivals();
      Arrivals warmedUp = new Arrivals();
      Channel consumer = broker.connection().createChannel();
      consumer.basicConsume(
          broker.queue(),
          true,
          new DefaultConsumer(consumer) {
            @Override
            public void handleDelivery(
                String tag, Envelope e, AMQP.BasicProperties p, byte[] body) {
              String index = new String(body, StandardCharsets.UTF_8);
              (Integer.parseInt(index) < count ? consumed : warmedUp).seen(index);
            }
          });
      SkipLockedRelay relay = new SkipLockedRelay(db.dataSource(), broker, pollers);
      Load.Result warm = Load.run(shape, warmup, (i, at) -> insert(db.dataSource(), count + i));
      awaitConsumed(warmedUp, warmup - warm.errors());
      long[] scheduled = new long[count];
      meter.start();
      Load.Result inserts =
          Load.run(
              shape,
              count,
              (i, at) -> {
                scheduled[i] = at;
                insert(db.dataSource(), i);
              });
      awaitConsumed(consumed, count - inserts.errors());
      meter.stop();
      relay.close();
      consumer.close();
      return result(inserts, consumed, scheduled, relay.firstError());
    }
  }

  /** Waits up to {@value #DRAIN_MS} ms until {@code n} messages were consumed. */
  private static void awaitConsumed(Arrivals consumed, int n) throws InterruptedException {
    long deadline = System.nanoTime() + DRAIN_MS * 1_000_000;
    while (consumed.distinct() < n && System.nanoTime() < deadline) {
      Thread.sleep(10);
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
        scheduled.length - consumed.distinct(),
        List.of());
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
}

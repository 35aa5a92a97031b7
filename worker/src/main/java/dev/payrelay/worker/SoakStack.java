package dev.payrelay.worker;

import dev.payrelay.sql.Database;
import dev.payrelay.sql.DatabaseConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jooq.DSLContext;

/**
 * What a soak runs: a fresh migrated database, a fault proxy in front of the database and one in
 * front of the broker, Temporal with the soak's own namespace (the soak holds the connection, so a
 * dev server it started outlives every child it kills), and {@code payrelay sandbox}, {@code
 * worker} and {@code api} as child processes that reach the database and the broker only through
 * the proxies. The soak itself reads the database and the broker directly.
 */
final class SoakStack implements AutoCloseable {

  private final SoakNames names;
  private final SoakEnvironment environment;
  private final FaultProxy db;
  private final FaultProxy broker;
  private final TemporalConnection temporal;
  private final Database database;
  private final SoakChildren children = new SoakChildren();
  private final AtomicBoolean closed = new AtomicBoolean();

  private SoakStack(
      SoakNames names,
      SoakEnvironment environment,
      FaultProxy db,
      FaultProxy broker,
      TemporalConnection temporal,
      Database database) {
    this.names = names;
    this.environment = environment;
    this.db = db;
    this.broker = broker;
    this.temporal = temporal;
    this.database = database;
  }

  /**
   * Creates and migrates the database, starts the proxies and connects to Temporal; the children
   * are started by {@link #startChildren}.
   */
  static SoakStack open(Map<String, String> env, SoakNames names, PrintWriter out)
      throws IOException {
    PayrelayConfig base = PayrelayConfig.fromEnv(env);
    Preflight.check(base);
    DatabaseConfig direct = names.database(base.database());
    Database.createIfMissing(direct);
    Database database = Database.open(direct.withPool("payrelay-soak", 2));
    FaultProxy db = null;
    FaultProxy broker = null;
    try {
      database.migrate();
      URI dbServer = URI.create(direct.jdbcUrl().substring("jdbc:".length()));
      URI amqp = URI.create(base.amqp().uri());
      db = FaultProxy.start("db", dbServer.getHost(), port(dbServer, 3306));
      broker = FaultProxy.start("broker", amqp.getHost(), port(amqp, 5672));
      SoakEnvironment environment =
          SoakEnvironment.of(
              env,
              names,
              direct,
              base.amqp().uri(),
              base.temporal().target(),
              new SoakEnvironment.Ports(db.port(), broker.port(), freePort(), freePort()));
      // Without PAYRELAY_TEMPORAL_ADDRESS this starts the local dev server when none runs; the
      // soak holds it, so it outlives every child the soak kills. The children get its address.
      Map<String, String> own = new HashMap<>(env);
      own.put("PAYRELAY_TEMPORAL_NAMESPACE", names.namespace());
      TemporalConnection temporal = TemporalConnection.open(PayrelayConfig.fromEnv(own).temporal());
      out.printf(
          "database   %s (children through %s)%n"
              + "broker     exchange %s, queue %s (children through %s)%n"
              + "temporal   %s namespace %s (%s)%n",
          direct.databaseName(),
          db,
          names.exchange(),
          names.queue(),
          broker,
          base.temporal().target(),
          names.namespace(),
          temporal.kind());
      return new SoakStack(names, environment, db, broker, temporal, database);
    } catch (IOException | RuntimeException e) {
      for (FaultProxy proxy : new FaultProxy[] {db, broker}) {
        if (proxy != null) {
          proxy.close();
        }
      }
      database.close();
      throw e;
    }
  }

  /** Starts the sandbox, the worker and the API, each waiting until it serves. */
  void startChildren(Path dir, PrintWriter out) throws IOException, InterruptedException {
    children.start(environment.children(), dir, out);
  }

  /** The child processes. */
  SoakChildren children() {
    return children;
  }

  /** The proxy in front of the database. */
  FaultProxy dbProxy() {
    return db;
  }

  /** The proxy in front of the broker. */
  FaultProxy brokerProxy() {
    return broker;
  }

  /** The soak's names. */
  SoakNames names() {
    return names;
  }

  /** The children's environment and the direct one (for the checker). */
  SoakEnvironment environment() {
    return environment;
  }

  /** The soak's database, directly (never through the proxy). */
  DSLContext dsl() {
    return database.dsl();
  }

  /** Drops the soak's database (a soak that passed leaves nothing behind unless asked to). */
  /** Deletes the soak's Temporal namespace with its workflows (the unpaid payments' still run). */
  void deleteNamespace() {
    temporal.deleteNamespace();
  }

  void dropDatabase() {
    database.dsl().execute("DROP DATABASE IF EXISTS `" + names.databaseName() + "`");
  }

  /**
   * Stops the children, the proxies, the database pool and Temporal (if the soak started it).
   * Idempotent: the shutdown hook and the soak's own way out may both call it.
   */
  @Override
  public void close() {
    if (closed.getAndSet(true)) {
      return;
    }
    children.close();
    db.close();
    broker.close();
    database.close();
    temporal.close();
  }

  private static int port(URI uri, int fallback) {
    return uri.getPort() < 0 ? fallback : uri.getPort();
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}

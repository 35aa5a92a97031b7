package dev.payrelay.tools.soak;

import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.config.Preflight;
import dev.payrelay.app.temporal.TemporalConnection;
import dev.payrelay.ledger.db.Database;
import dev.payrelay.ledger.db.DatabaseConfig;
import io.temporal.client.WorkflowClient;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jooq.DSLContext;

/**
 * What a soak runs: a fresh migrated database; Temporal with the soak's own namespace, on the
 * soak's own dev server ({@link SoakTemporal}, which it can kill) unless {@code
 * PAYRELAY_TEMPORAL_ADDRESS} names a server; a fault proxy in front of each of the database, the
 * broker and Temporal; and {@code payrelay sandbox}, {@code worker} and {@code api} as child
 * processes that reach the three only through the proxies. The soak itself reaches all three
 * directly.
 */
final class SoakStack implements AutoCloseable {

  private final SoakNames names;
  private final SoakEnvironment environment;
  private final Proxies proxies;
  private final SoakTemporal ownTemporal;
  private final TemporalConnection temporal;
  private final Database database;
  private final SoakChildren children = new SoakChildren();
  private final AtomicBoolean closed = new AtomicBoolean();

  private SoakStack(
      SoakNames names,
      SoakEnvironment environment,
      Proxies proxies,
      SoakTemporal ownTemporal,
      TemporalConnection temporal,
      Database database) {
    this.names = names;
    this.environment = environment;
    this.proxies = proxies;
    this.ownTemporal = ownTemporal;
    this.temporal = temporal;
    this.database = database;
  }

  /** The fault proxies in front of the database, the broker and Temporal. */
  private record Proxies(FaultProxy db, FaultProxy broker, FaultProxy temporal) {

    /** Starts the three in that order, each added to {@code opened} once it listens. */
    static Proxies start(
        DatabaseConfig database, String amqpUri, String temporalTarget, List<AutoCloseable> opened)
        throws IOException {
      URI dbServer = URI.create(database.jdbcUrl().substring("jdbc:".length()));
      URI amqp = URI.create(amqpUri);
      URI frontend = URI.create("grpc://" + temporalTarget);
      return new Proxies(
          opened(opened, FaultProxy.start("db", dbServer.getHost(), port(dbServer, 3306))),
          opened(opened, FaultProxy.start("broker", amqp.getHost(), port(amqp, 5672))),
          opened(opened, FaultProxy.start("temporal", frontend.getHost(), frontend.getPort())));
    }

    /** The run's ports: the three proxies', then a free one each for the API and the sandbox. */
    SoakEnvironment.Ports ports() throws IOException {
      return new SoakEnvironment.Ports(
          db.port(), broker.port(), temporal.port(), freePort(), freePort());
    }
  }

  /**
   * Creates and migrates the database, starts the soak's own Temporal (its store and log in {@code
   * dir}) unless an address is set, starts the proxies and connects to Temporal; the children are
   * started by {@link #startChildren}.
   */
  static SoakStack open(Map<String, String> env, SoakNames names, Path dir, PrintWriter out)
      throws IOException {
    PayrelayConfig base = PayrelayConfig.fromEnv(env);
    Preflight.check(base);
    DatabaseConfig direct = names.database(base.database());
    Database.createIfMissing(direct);
    Database database = Database.open(direct.withPool("payrelay-soak", 2));
    List<AutoCloseable> opened = new ArrayList<>(List.of(database));
    try {
      database.migrate();
      SoakTemporal own =
          base.temporal().isLocal()
              ? opened(
                  opened,
                  SoakTemporal.start(
                      base.temporal().local().cli(), freePort(), dir, names.namespace()))
              : null;
      String target = own != null ? own.target() : base.temporal().target();
      Proxies proxies = Proxies.start(direct, base.amqp().uri(), target, opened);
      SoakEnvironment environment =
          SoakEnvironment.of(env, names, direct, base.amqp().uri(), target, proxies.ports());
      // The soak's own connection, direct: it lists the runs after the drain and deletes the
      // namespace, whatever the children's link is doing.
      TemporalConnection temporal =
          TemporalConnection.open(PayrelayConfig.fromEnv(environment.direct()).temporal());
      printWhere(out, names, direct, target, own, proxies);
      return new SoakStack(names, environment, proxies, own, temporal, database);
    } catch (IOException | RuntimeException e) {
      for (AutoCloseable c : opened.reversed()) {
        closeQuietly(c);
      }
      throw e;
    }
  }

  /** The soak's start-up lines: where each of the three is, and the proxy the children use. */
  private static void printWhere(
      PrintWriter out,
      SoakNames names,
      DatabaseConfig direct,
      String target,
      SoakTemporal own,
      Proxies proxies) {
    out.printf(
        "database   %s (children through %s)%n"
            + "broker     exchange %s, queue %s (children through %s)%n"
            + "temporal   %s namespace %s, %s (children through %s)%n",
        direct.databaseName(),
        proxies.db(),
        names.exchange(),
        names.queue(),
        proxies.broker(),
        target,
        names.namespace(),
        own != null ? "the soak's own dev server, store " + own.store() : "not the soak's",
        proxies.temporal());
  }

  private static <T extends AutoCloseable> T opened(List<AutoCloseable> opened, T closeable) {
    opened.add(closeable);
    return closeable;
  }

  private static void closeQuietly(AutoCloseable closeable) {
    try {
      closeable.close();
    } catch (Exception e) {
      // already failing: the first error is the one reported
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
    return proxies.db();
  }

  /** The proxy in front of the broker. */
  FaultProxy brokerProxy() {
    return proxies.broker();
  }

  /** The proxy in front of Temporal. */
  FaultProxy temporalProxy() {
    return proxies.temporal();
  }

  /** The soak's own Temporal server, or empty when it runs on a server it was given. */
  Optional<SoakTemporal> ownTemporal() {
    return Optional.ofNullable(ownTemporal);
  }

  /** The soak's own client of its Temporal namespace (direct, never through the proxy). */
  WorkflowClient temporalClient() {
    return temporal.client();
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

  /** Deletes the soak's Temporal namespace with its workflows (the unpaid payments' still run). */
  void deleteNamespace() {
    temporal.deleteNamespace();
  }

  /** Drops the soak's database (a soak that passed leaves nothing behind unless asked to). */
  void dropDatabase() {
    database.dsl().execute("DROP DATABASE IF EXISTS `" + names.databaseName() + "`");
  }

  /**
   * Stops the children, the proxies, the database pool and Temporal (if the soak runs its own).
   * Idempotent: the shutdown hook and the soak's own way out may both call it.
   */
  @Override
  public void close() {
    if (closed.getAndSet(true)) {
      return;
    }
    children.close();
    proxies.db().close();
    proxies.broker().close();
    proxies.temporal().close();
    database.close();
    temporal.close();
    if (ownTemporal != null) {
      ownTemporal.close();
    }
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

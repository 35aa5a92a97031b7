package dev.payrelay.tools.soak;

import dev.payrelay.ledger.db.DatabaseConfig;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The names one soak run owns, so runs never share state with each other or with anything else: its
 * database, exchange, queue and Temporal namespace.
 *
 * @param id the run's id: UTC time of start and four random hex digits, e.g. {@code
 *     20261128-093000-1a2b}
 */
record SoakNames(String id) {

  private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

  /** Names for a run starting now. */
  static SoakNames fresh() {
    byte[] random = new byte[2];
    ThreadLocalRandom.current().nextBytes(random);
    return new SoakNames(
        ZonedDateTime.now(ZoneOffset.UTC).format(STAMP) + "-" + HexFormat.of().formatHex(random));
  }

  /** {@code payrelay_soak_<id>} with underscores. */
  String databaseName() {
    return "payrelay_soak_" + id.replace('-', '_');
  }

  /** {@code payrelay.soak.<id>}. */
  String exchange() {
    return "payrelay.soak." + id;
  }

  /** The queue bound to every payment event: {@code payrelay.soak.<id>.events}. */
  String queue() {
    return exchange() + ".events";
  }

  /** {@code soak-<id>}. */
  String namespace() {
    return "soak-" + id;
  }

  /** {@code base}'s server and login with the soak's database instead of its own. */
  DatabaseConfig database(DatabaseConfig base) {
    String server = base.serverUrl();
    int params = server.indexOf('?');
    String url =
        params < 0
            ? server + databaseName()
            : server.substring(0, params) + databaseName() + server.substring(params);
    return new DatabaseConfig(url, base.user(), base.password(), base.maxPoolSize());
  }
}

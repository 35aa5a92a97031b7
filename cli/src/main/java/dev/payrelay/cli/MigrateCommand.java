package dev.payrelay.cli;

import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.ledger.db.Database;
import dev.payrelay.ledger.db.DatabaseConfig;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code payrelay migrate}: create the database if missing and apply the Flyway migrations. */
@Command(
    name = "migrate",
    mixinStandardHelpOptions = true,
    description =
        "Create the database if missing (utf8mb4) and apply the Flyway migrations (PAYRELAY_DB_*).")
final class MigrateCommand implements Callable<Integer> {

  @Override
  public Integer call() {
    PayrelayConfig config = PayrelayCommand.config();
    Database.createIfMissing(config.database());
    try (Database db = Database.open(config.database())) {
      System.out.printf(
          "%s: %d migration(s) applied%n",
          DatabaseConfig.withoutSecrets(config.database().jdbcUrl()), db.migrate());
    }
    return 0;
  }
}

package dev.payrelay.ledger.db;

/** The database server cannot be reached or refused the login. */
public final class DatabaseUnavailableException extends RuntimeException {

  /** Wraps the driver's error for {@code url}. */
  public DatabaseUnavailableException(String url, Throwable cause) {
    super(
        "cannot reach the database at "
            + DatabaseConfig.withoutSecrets(url)
            + ": "
            + rootMessage(cause),
        cause);
  }

  private static String rootMessage(Throwable t) {
    Throwable root = t;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getMessage();
  }
}

package dev.payrelay.api.health;

/**
 * One cheap round trip to a dependency of the process, e.g. {@code SELECT 1} on the database,
 * Temporal's {@code GetSystemInfo}, or a channel opened and closed on the broker's connection.
 * {@link Readiness} runs it about once a second on a thread of its own and counts a call that has
 * not returned within {@link Readiness#PROBE_TIMEOUT} as a failure.
 */
@FunctionalInterface
public interface DependencyCheck extends AutoCloseable {

  /**
   * Returns when the dependency answered.
   *
   * @throws Exception the dependency's own error when it did not (its text is what readiness
   *     reports)
   */
  void check() throws Exception;

  /** Releases what the check holds (e.g. its broker connection); by default nothing. */
  @Override
  default void close() {}
}

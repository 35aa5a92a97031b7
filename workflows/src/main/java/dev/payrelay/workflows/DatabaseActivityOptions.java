package dev.payrelay.workflows;

import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import java.time.Duration;

/**
 * Options for activities that are short database transactions whose effect must not be lost to an
 * outage (grants, audits, dead marks, ledger writes): retried until the database answers, never for
 * the errors named as permanent.
 */
final class DatabaseActivityOptions {

  private DatabaseActivityOptions() {}

  /**
   * 1 s doubling to a 1 min cap (a recovering database is probed at least once a minute), unbounded
   * attempts (0: an outage delays the effect but never drops it).
   *
   * @param startToClose how long one attempt may take
   * @param permanent failure types that are not retried
   */
  static ActivityOptions untilTheDatabaseAnswers(Duration startToClose, String... permanent) {
    return withAttempts(startToClose, 0, permanent);
  }

  /**
   * The same backoff (1 s doubling to a 1 min cap), for at most {@code attempts} attempts: for an
   * activity whose caller tries again later anyway (a Schedule's next action), so one action must
   * not outlive its turn.
   *
   * @param startToClose how long one attempt may take
   * @param attempts the most attempts; 0 is unbounded
   * @param permanent failure types that are not retried
   */
  static ActivityOptions withAttempts(Duration startToClose, int attempts, String... permanent) {
    return ActivityOptions.newBuilder()
        .setStartToCloseTimeout(startToClose)
        .setRetryOptions(
            RetryOptions.newBuilder()
                .setInitialInterval(Duration.ofSeconds(1))
                .setBackoffCoefficient(2)
                .setMaximumInterval(Duration.ofMinutes(1))
                .setMaximumAttempts(attempts)
                .setDoNotRetry(permanent)
                .build())
        .build();
  }
}

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
    return ActivityOptions.newBuilder()
        .setStartToCloseTimeout(startToClose)
        .setRetryOptions(
            RetryOptions.newBuilder()
                .setInitialInterval(Duration.ofSeconds(1))
                .setBackoffCoefficient(2)
                .setMaximumInterval(Duration.ofMinutes(1))
                .setMaximumAttempts(0)
                .setDoNotRetry(permanent)
                .build())
        .build();
  }
}

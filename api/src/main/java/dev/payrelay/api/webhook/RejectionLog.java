package dev.payrelay.api.webhook;

import java.time.Duration;
import org.slf4j.Logger;

/**
 * The WARN line of a rejected callback, at most {@link #LINES} per outcome every {@link #WINDOW}
 * ({@link LogRateLimiter}), so a flood of unsigned requests cannot become a flood of log lines
 * (issue 24); the next line of an outcome that had lines held back is preceded by one summary line,
 * {@code callback rejections BAD_SIGNATURE: suppressed 4990 line(s) (at most 10 per 10 s)}. The
 * {@code payrelay.webhook.callbacks} metric still counts every rejection.
 */
final class RejectionLog {

  /** WARN lines per outcome and window. */
  static final int LINES = 10;

  /** The window. */
  static final Duration WINDOW = Duration.ofSeconds(10);

  private final Logger log;
  private final LogRateLimiter limiter;

  /** Lines written to {@code log}. */
  RejectionLog(Logger log) {
    this(log, new LogRateLimiter(LINES, WINDOW));
  }

  /** Lines written to {@code log}, as {@code limiter} allows. */
  RejectionLog(Logger log, LogRateLimiter limiter) {
    this.log = log;
    this.limiter = limiter;
  }

  /** Logs (or counts) the rejection of inbox row {@code inboxId} with {@code outcome}. */
  void rejected(long inboxId, String outcome, String detail) {
    LogRateLimiter.Permit permit = limiter.acquire(outcome);
    if (permit.suppressedBefore() > 0) {
      log.warn(
          "callback rejections {}: suppressed {} line(s) (at most {} per {} s)",
          outcome,
          permit.suppressedBefore(),
          LINES,
          WINDOW.toSeconds());
    }
    if (permit.log()) {
      log.warn("callback {} rejected: {} ({})", inboxId, outcome, detail);
    }
  }
}

package dev.payrelay.workflows;

import io.temporal.activity.LocalActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.WorkflowLocal;
import java.time.Duration;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;

/**
 * A payment's short steps (the ledger read at the start of a run, the first attempt of each
 * publish, the grant) run first as a local activity inside the workflow task, and only when that
 * one attempt fails as the durable activity with its own retry options.
 *
 * <p>Why: a regular activity costs the server an activity task and the workflow a second workflow
 * task (seven history events); a local activity is one marker event in the workflow task that ran
 * it. On the happy path a payment's run goes from six workflow tasks and four activity tasks to two
 * workflow tasks (docs/benchmarks.md). Temporal's guidance for local activities: short (seconds),
 * no heartbeat, and idempotent, because a worker that crashes mid-task runs the workflow task, and
 * so the local activity, again ({@code docs.temporal.io}, "Local Activity"). Each of these steps
 * is: the read has no effect, a publish is keyed by event id, a grant by business keys.
 *
 * <p>Failures keep their durable semantics: the local attempt is never retried locally; a failure
 * of a permanent type is thrown as the durable activity would throw it, and any other failure (a
 * timeout, a wait for a local slot, a database or broker blip) hands the step at once to the
 * durable call, whose own retries are the ones that count: the grant's and the read's unbounded
 * attempts, and for a publish its event type's {@link PublishRetryPolicy}, of which the durable
 * call is attempt 1.
 *
 * <p>Deploying it: a run that recorded the marker cannot be replayed by a worker from before it, so
 * the workers of the previous release stop before the new ones start, and a rollback past this
 * change needs the runs it started to finish first (docs/operations.md, "Upgrading").
 *
 * <p>Added as {@code Workflow.getVersion("local-first")}: runs that began without the marker keep
 * scheduling regular activities, as their histories say.
 */
final class LocalFirst {

  /** The {@code Workflow.getVersion} change id. */
  static final String CHANGE_ID = "local-first";

  /** The version whose runs use local attempts first. */
  static final int VERSION = 1;

  private static final Logger log = Workflow.getLogger(LocalFirst.class);

  /** The local attempts under way in this run; one counter per workflow run, not per worker. */
  private static final WorkflowLocal<int[]> IN_FLIGHT =
      WorkflowLocal.withCachedInitial(() -> new int[1]);

  private LocalFirst() {}

  /**
   * This run's version: {@link #VERSION} for a new run, {@link Workflow#DEFAULT_VERSION} for a
   * history recorded before the change.
   */
  static int version() {
    return Workflow.getVersion(CHANGE_ID, Workflow.DEFAULT_VERSION, VERSION);
  }

  /**
   * One attempt of at most {@code startToClose}, no local retry, and at most twice that from being
   * scheduled (waiting for a local activity slot included) before the step goes durable.
   */
  static LocalActivityOptions oneAttempt(Duration startToClose) {
    return LocalActivityOptions.newBuilder()
        .setStartToCloseTimeout(startToClose)
        .setScheduleToCloseTimeout(startToClose.multipliedBy(2))
        .setRetryOptions(RetryOptions.newBuilder().setMaximumAttempts(1).build())
        .build();
  }

  /**
   * Runs {@code local}; when it fails, throws a failure whose type is in {@code permanent} (or that
   * is non-retryable) as it is, and otherwise runs {@code durable} and returns its result.
   *
   * @param what the step, for the log line of a fallback
   * @throws ActivityFailure the local attempt's permanent failure, or the durable activity's
   */
  static <T> T call(String what, Supplier<T> local, Supplier<T> durable, Set<String> permanent) {
    try {
      return counted(local);
    } catch (ActivityFailure e) {
      if (isPermanent(e, permanent)) {
        throw e;
      }
      log.warn(
          "{}: local attempt failed ({}); continuing as a durable activity",
          what,
          ActivityFailures.reasonOf(e));
      return durable.get();
    }
  }

  /**
   * How many local attempts of this run are under way: the run's workflow task does not end while
   * one is ({@link StateAttribute} waits for none).
   */
  static int inFlight() {
    return IN_FLIGHT.get()[0];
  }

  private static <T> T counted(Supplier<T> local) {
    int[] count = IN_FLIGHT.get();
    count[0]++;
    try {
      return local.get();
    } finally {
      count[0]--;
    }
  }

  /** Whether the activity's failure is non-retryable or of one of the {@code permanent} types. */
  static boolean isPermanent(ActivityFailure e, Set<String> permanent) {
    return e.getCause() instanceof ApplicationFailure af
        && (af.isNonRetryable() || permanent.contains(af.getType()));
  }
}

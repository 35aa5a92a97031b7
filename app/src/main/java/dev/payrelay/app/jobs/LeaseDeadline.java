package dev.payrelay.app.jobs;

import io.grpc.Context;
import io.grpc.Deadline;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The deadline of the network calls made while one lease is held (issue 25 row 11): a third of the
 * lease after the holder started to take it, so a call to a server that accepts and never answers
 * ends with two thirds of the lease left to write the outcome back, and no other holder can take
 * the work while the call is still in flight.
 *
 * <p>It is a gRPC {@link Context} deadline ({@link #run}): every gRPC call made inside, Temporal's
 * included, is cancelled at it (grpc-java: a call's deadline is the earlier of its own and its
 * context's), and the Temporal SDK's retry of transient errors ({@code GrpcSyncRetryer}, which
 * otherwise retries for its one-minute {@code RpcRetryOptions} expiration) stops once the context's
 * deadline passed. Against a server that fails each call at once instead of hanging, the SDK may
 * still sleep one retry backoff after the deadline before it gives up, at most {@link
 * #SDK_BACKOFF_OVERRUN} ({@code DefaultStubServiceOperationRpcRetryOptions}: 5 s cap, 20 % jitter).
 *
 * <p>The clock is this process's monotonic one ({@link System#nanoTime} through {@link Deadline});
 * the lease's expiry is the database's {@code NOW(6) + lease}, taken after the deadline started, so
 * the deadline always falls at least two thirds of the lease before it.
 */
public final class LeaseDeadline {

  /** The deadline is the lease divided by this. */
  static final int LEASE_SHARE = 3;

  /** The longest retry backoff the Temporal SDK may sleep after the deadline passed. */
  static final Duration SDK_BACKOFF_OVERRUN = Duration.ofSeconds(6);

  private final Duration lease;
  private final Duration budget;
  private final Deadline deadline;

  private LeaseDeadline(Duration lease) {
    this.lease = lease;
    this.budget = lease.dividedBy(LEASE_SHARE);
    this.deadline = Deadline.after(budget.toNanos(), TimeUnit.NANOSECONDS);
  }

  /**
   * The deadline for a lease of {@code lease} about to be taken (call it before the statement that
   * takes the lease).
   */
  public static LeaseDeadline startingNow(Duration lease) {
    return new LeaseDeadline(lease);
  }

  /** Whether the deadline passed: no call may start under this lease any more. */
  public boolean expired() {
    return deadline.isExpired();
  }

  /**
   * Runs {@code call} with every gRPC call made inside it on this thread bounded by the deadline;
   * one that outlives it fails with {@code DEADLINE_EXCEEDED}.
   *
   * @param timer cancels the context at the deadline (grpc-java needs one for a context deadline)
   * @throws RuntimeException whatever {@code call} throws
   */
  public void run(Runnable call, ScheduledExecutorService timer) {
    get(
        () -> {
          call.run();
          return null;
        },
        timer);
  }

  /**
   * As {@link #run}, returning what {@code call} returns.
   *
   * @throws RuntimeException whatever {@code call} throws
   */
  public <T> T get(Supplier<T> call, ScheduledExecutorService timer) {
    Context.CancellableContext context = Context.current().withDeadline(deadline, timer);
    Context previous = context.attach();
    try {
      return call.get();
    } finally {
      context.detach(previous);
      context.cancel(null);
    }
  }

  /**
   * A failure's text for {@code last_error} and logs when the deadline passed during the call, e.g.
   * {@code gave up at the deadline of calls under the lease (2000 ms, a third of the 6000 ms
   * lease): WorkflowServiceException: ...}; otherwise the failure's text alone.
   */
  public String failure(String failure) {
    return expired() ? "gave up at " + this + ": " + failure : failure;
  }

  /** Why work whose turn came after the deadline was not started. */
  public String notStarted() {
    return "not started: " + this + " had passed";
  }

  @Override
  public String toString() {
    return "the deadline of calls under the lease ("
        + budget.toMillis()
        + " ms, a third of the "
        + lease.toMillis()
        + " ms lease)";
  }
}

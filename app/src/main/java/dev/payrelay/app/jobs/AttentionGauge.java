package dev.payrelay.app.jobs;

import dev.payrelay.temporal.client.PaymentListingFilter;
import dev.payrelay.workflows.PaymentWorkflowState;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.temporal.client.WorkflowClient;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code payrelay.payments.needs_attention}: how many payment workflows wait for an operator, read
 * every {@link #EVERY} on a daemon thread.
 *
 * <p>NEEDS_ATTENTION is a workflow state, not a database column: the workflow shows it while any
 * cause is open (a recorded exception, a DEAD event, a failed grant or close) and keeps it in its
 * {@code PaymentState} search attribute. So the count comes from where the state lives, Temporal
 * visibility: one {@code CountWorkflowExecutions} with the List Filter the CLI and the Web UI use
 * ({@code WorkflowType = "PaymentWorkflow" AND PaymentState = "NEEDS_ATTENTION"}) and {@code
 * ExecutionStatus = "Running"} (a run continued as new keeps its last attribute; only the open run
 * counts). Visibility is eventually consistent: the count trails a state change by a moment.
 *
 * <p>{@code payrelay.payments.channel_query_failing} counts, the same way, the running payments
 * among them whose channel queries fail in a row ({@code PaymentAttention = "channel-query"}, set
 * by the workflow's {@code QueryAttention}): a paid order whose callback was lost and whose channel
 * does not answer, which no event of its own reports.
 *
 * <p>Before the first count, and after a failed one (Temporal unreachable), the gauges read NaN
 * (unknown), never a stale number.
 */
public final class AttentionGauge implements AutoCloseable {

  /** The gauge's name. */
  public static final String NAME = "payrelay.payments.needs_attention";

  /** The gauge of payments whose channel queries fail in a row. */
  public static final String QUERY_FAILING = "payrelay.payments.channel_query_failing";

  /** Pause between counts: one cheap visibility call per worker, often enough for an alert. */
  public static final Duration EVERY = Duration.ofSeconds(15);

  private static final Logger log = LoggerFactory.getLogger(AttentionGauge.class);

  private final WorkflowClient client;
  private final String query;
  private final String queryFailingQuery;
  private final AtomicReference<Double> last = new AtomicReference<>(Double.NaN);
  private final AtomicReference<Double> queryFailing = new AtomicReference<>(Double.NaN);
  private volatile boolean failing;
  private final ScheduledExecutorService scheduler =
      Executors.newSingleThreadScheduledExecutor(
          Thread.ofPlatform().name("attention-gauge").daemon().factory());

  /** Registers the gauge in {@code registry}; it reads NaN until {@link #refresh()}. */
  public AttentionGauge(WorkflowClient client, MeterRegistry registry) {
    this.client = client;
    this.query =
        new PaymentListingFilter(PaymentWorkflowState.NEEDS_ATTENTION, null, null).query()
            + " AND ExecutionStatus = \"Running\"";
    Gauge.builder(NAME, last, AtomicReference::get)
        .description(
            "Running payment workflows in NEEDS_ATTENTION (Temporal visibility, PaymentState)")
        .register(registry);
    this.queryFailingQuery = PaymentListingFilter.channelQueriesFailing();
    Gauge.builder(QUERY_FAILING, queryFailing, AtomicReference::get)
        .description(
            "Running payment workflows whose channel queries fail in a row (PaymentAttention)")
        .register(registry);
  }

  /** Counts now, then every {@link #EVERY}. */
  public AttentionGauge start() {
    scheduler.scheduleWithFixedDelay(
        () -> {
          try {
            refresh();
            failing = false;
          } catch (RuntimeException e) {
            // An exception would cancel the schedule for good; the next count may well succeed.
            // One warning per outage, not one every EVERY.
            if (!failing) {
              log.warn("counting NEEDS_ATTENTION payments failed (gauge NaN): {}", e.toString());
            }
            failing = true;
          }
        },
        0,
        EVERY.toMillis(),
        TimeUnit.MILLISECONDS);
    return this;
  }

  /**
   * Counts the payments in NEEDS_ATTENTION and publishes the number to the gauge.
   *
   * @return the count now reported
   * @throws io.grpc.StatusRuntimeException if Temporal cannot count; the gauge then reads NaN
   */
  public long refresh() {
    try {
      long count = client.countWorkflows(query).getCount();
      last.set((double) count);
      queryFailing.set((double) client.countWorkflows(queryFailingQuery).getCount());
      return count;
    } catch (RuntimeException e) {
      last.set(Double.NaN);
      queryFailing.set(Double.NaN);
      throw e;
    }
  }

  @Override
  public void close() {
    scheduler.shutdownNow();
  }
}

package dev.payrelay.worker;

import dev.payrelay.sql.PaymentRow;
import dev.payrelay.sql.PaymentStore;
import dev.payrelay.workflows.ChannelQueryPolicy;
import dev.payrelay.workflows.OperatorSignal;
import dev.payrelay.workflows.PaymentWorkflow;
import dev.payrelay.workflows.PaymentWorkflowInput;
import dev.payrelay.workflows.PaymentWorkflowStarts;
import dev.payrelay.workflows.PublishRetryPolicy;
import io.temporal.client.WorkflowClient;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A safety net for the deadline watch: a PENDING payment well past its deadline gets a {@code
 * requery} signal by signalWithStart, so a lost workflow (an embedded dev server restarted, or a
 * history from before the watch existed) starts again and closes and expires it; a running one just
 * asks the channel again. Each sweep is audited as a REQUERY by {@code payrelay-sweeper}.
 */
public final class ExpirySweep implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(ExpirySweep.class);
  private static final int BATCH = 100;

  private final PaymentStore payments;
  private final WorkflowClient client;
  private final Map<String, PublishRetryPolicy> publishRetries;
  private final ChannelQueryPolicy channelQueries;
  private final Duration grace;
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          r -> Thread.ofPlatform().name("expiry-sweep").daemon().unstarted(r));

  /**
   * A sweep (not yet started).
   *
   * @param grace how long past its deadline a PENDING payment is left to its own workflow
   */
  public ExpirySweep(
      PaymentStore payments,
      WorkflowClient client,
      Map<String, PublishRetryPolicy> publishRetries,
      ChannelQueryPolicy channelQueries,
      Duration grace) {
    this.payments = payments;
    this.client = client;
    this.publishRetries = Map.copyOf(publishRetries);
    this.channelQueries = channelQueries;
    this.grace = grace;
  }

  /** Sweeps every {@code interval}. */
  public ExpirySweep start(Duration interval) {
    timer.scheduleWithFixedDelay(
        this::sweepOnce, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    return this;
  }

  /** One sweep; returns how many payments were signalled. */
  int sweepOnce() {
    int signalled = 0;
    try {
      for (PaymentRow p : payments.overdue(grace, BATCH)) {
        PaymentWorkflowStarts.signalWithStart(
            client,
            new PaymentWorkflowInput(
                p.paymentId(),
                p.tenantId(),
                p.orderId(),
                p.channel(),
                publishRetries,
                p.expiresAt().toString(),
                channelQueries),
            PaymentWorkflow::requery,
            new OperatorSignal("payrelay-sweeper", "PENDING past its deadline", null));
        signalled++;
      }
    } catch (RuntimeException e) {
      log.warn("expiry sweep failed after {} payment(s): {}", signalled, e.toString());
    }
    if (signalled > 0) {
      log.info(
          "expiry sweep: {} PENDING payment(s) past their deadline handed to their workflow",
          signalled);
    }
    return signalled;
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}

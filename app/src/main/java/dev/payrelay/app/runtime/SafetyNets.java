package dev.payrelay.app.runtime;

import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.dispatch.WorkflowHandoff;
import dev.payrelay.app.jobs.PagedJob;
import dev.payrelay.ledger.checks.GrantGaps;
import dev.payrelay.ledger.db.JobLeases;
import dev.payrelay.ledger.db.PageCursor;
import dev.payrelay.ledger.outbox.EventHandoff;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.workflows.OperatorSignal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The worker's safety nets, each run by one worker at a time (a database lease) and paging fairly
 * ({@link PagedJob}): PENDING payments well past their deadline whose workflow is not running get
 * {@code requery} (a lost workflow starts again and closes and expires them); PAID payments missing
 * an entitlement whose workflow is not running get their {@code PaymentConfirmed} again (a grant
 * lost with its run is repaired within {@code grantRepairAfter + grantRepair}; a live run is
 * granting and is left to it).
 *
 * @param leases the jobs' leases
 * @param owner this worker's lease owner name
 * @param handoff how a lost payment is signalled again
 */
record SafetyNets(JobLeases leases, String owner, WorkflowHandoff handoff) {

  /** Rows per safety-net pass: a pass is a few seconds of signals at most. */
  private static final int SWEEP_BATCH = 100;

  /**
   * Starts the safety nets whose interval ({@link PayrelayConfig.TemporalSettings#expirySweep},
   * {@link PayrelayConfig.TemporalSettings#grantRepair}) is not zero, as lease owner {@code owner}.
   *
   * @return the running jobs, for the worker to close
   */
  static List<PagedJob<?>> start(
      PayrelayConfig config, Services services, WorkflowHandoff handoff, String owner) {
    PayrelayConfig.TemporalSettings t = config.temporal();
    SafetyNets nets = new SafetyNets(new JobLeases(services.database().dsl()), owner, handoff);
    List<PagedJob<?>> jobs = new ArrayList<>();
    if (!t.expirySweep().isZero()) {
      jobs.add(nets.expirySweep(services.payments(), t));
    }
    if (!t.grantRepair().isZero()) {
      jobs.add(nets.grantRepair(new GrantGaps(services.database().dsl()), t));
    }
    return jobs;
  }

  private PagedJob<PaymentRow> expirySweep(
      PaymentStore payments, PayrelayConfig.TemporalSettings t) {
    OperatorSignal sweeper =
        new OperatorSignal("payrelay-sweeper", "PENDING past its deadline", null);
    return run(
        "expiry-sweep",
        t.expirySweep(),
        PagedJob.Source.of(
            (after, limit) -> payments.overdue(t.expirySweepGrace(), after, limit),
            row -> new PageCursor(row.expiresAt(), row.paymentId())),
        payment -> {
          // A running workflow watches its own deadline (and shows NEEDS_ATTENTION when its close
          // keeps failing): signalling it would only write an audit row.
          if (!handoff.workflowRunning(payment.paymentId())) {
            handoff.requery(payment, sweeper);
          }
        });
  }

  private PagedJob<EventHandoff> grantRepair(GrantGaps gaps, PayrelayConfig.TemporalSettings t) {
    return run(
        "grant-repair",
        t.grantRepair(),
        PagedJob.Source.of(
            (after, limit) -> gaps.paidWithoutGrant(t.grantRepairAfter(), after, limit),
            gaps::cursorAfter),
        payment -> {
          // Only a payment whose run is gone is provably lost: a live run received the event (it
          // was dispatched) and is granting, maybe behind a lock; signalling it again every pass
          // only grew its history (issue 25 row 3).
          if (!handoff.workflowRunning(payment.paymentId())) {
            handoff.redeliver(payment);
          }
        });
  }

  private <T> PagedJob<T> run(
      String job, Duration every, PagedJob.Source<T> source, Consumer<T> action) {
    return new PagedJob<>(leases, job, owner, SWEEP_BATCH, source, action).start(every);
  }
}

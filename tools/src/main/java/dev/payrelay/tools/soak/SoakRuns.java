package dev.payrelay.tools.soak;

import dev.payrelay.app.jobs.WorkflowStateCheck;
import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.ledger.payment.LedgerSnapshot;
import dev.payrelay.temporal.client.PaymentListing;
import dev.payrelay.temporal.client.PaymentListingRow;
import dev.payrelay.temporal.client.PaymentListingUnavailableException;
import dev.payrelay.tools.soak.SoakAudit.Violation;
import dev.payrelay.workflows.PaymentWorkflowState;
import dev.payrelay.workflows.WorkflowIds;
import io.temporal.client.WorkflowClient;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The latest workflow run of each soak payment as Temporal's visibility store lists it (search
 * attribute {@code PaymentState} and execution status), read through the soak's own client, {@link
 * WorkflowStateCheck#BATCH} payments per List Filter, the latest run chosen as {@code payrelay
 * check} chooses it ({@link WorkflowStateCheck#latestRuns}); and whether each agrees with the
 * ledger once the soak is quiet. A run is a worker, not a record (DESIGN.md rule 11): it ends when
 * nothing is left to do, so after the drain a payment's latest run must be
 *
 * <ul>
 *   <li>PENDING: RUNNING, {@code AWAITING_PAYMENT} (its deadline watch waits for the channel);
 *   <li>PAID, PARTIALLY_REFUNDED, REFUNDED: COMPLETED, {@code FULFILLED} (REFUNDED: or {@code
 *       REFUNDED}, a later run's, see {@link #ALSO});
 *   <li>CLOSED: COMPLETED, {@code CLOSED}; EXPIRED: COMPLETED, {@code EXPIRED}.
 * </ul>
 *
 * Anything else is {@code RUN_STATE} (e.g. PAID in the ledger while the run, still open, awaits
 * payment; EXPIRED while a run still waits; PENDING with no run left to expire it); no run at all
 * is {@code RUN_MISSING}: every payment's {@code PaymentCreated} starts one. When Temporal could
 * not list the runs, that is {@code RUN_LIST}, and no run is checked.
 */
final class SoakRuns {

  /**
   * What visibility listed.
   *
   * @param latest the latest run per payment id (absent: no run); empty when the listing failed
   * @param failure why Temporal could not list them, or null
   */
  record Listed(Map<String, PaymentListingRow> latest, String failure) {

    /** Copies the map. */
    Listed {
      latest = Map.copyOf(latest);
    }
  }

  /** The run a payment in each ledger status must have once quiet: execution status and state. */
  private static final List<String> FULFILLED =
      List.of("COMPLETED", PaymentWorkflowState.FULFILLED.name());

  private static final Map<PaymentStatus, List<String>> EXPECTED =
      Map.of(
          PaymentStatus.PENDING,
          List.of("RUNNING", PaymentWorkflowState.AWAITING_PAYMENT.name()),
          PaymentStatus.PAID,
          FULFILLED,
          // The soak refunds only fulfilled payments; a refund's events go to its own workflow.
          PaymentStatus.PARTIALLY_REFUNDED,
          FULFILLED,
          PaymentStatus.REFUNDED,
          FULFILLED,
          PaymentStatus.CLOSED,
          List.of("COMPLETED", PaymentWorkflowState.CLOSED.name()),
          PaymentStatus.EXPIRED,
          List.of("COMPLETED", PaymentWorkflowState.EXPIRED.name()));

  /**
   * A REFUNDED payment's run may also be a later one that read the ledger REFUNDED and settled
   * (RefundedPayments, {@code refunded-settled}): an event of the payment handed off after its
   * first run had completed, e.g. a PaymentConfirmed the dispatcher was behind on, starts it.
   */
  private static final Map<PaymentStatus, List<String>> ALSO =
      Map.of(PaymentStatus.REFUNDED, List.of("COMPLETED", PaymentWorkflowState.REFUNDED.name()));

  private SoakRuns() {}

  /** The payments whose latest run ({@link #latest}) contradicts their ledger status. */
  static List<Violation> contradictions(List<LedgerSnapshot.Payment> payments, Listed runs) {
    if (runs.failure() != null) {
      return List.of(new Violation("RUN_LIST", null, runs.failure()));
    }
    List<Violation> violations = new ArrayList<>();
    for (LedgerSnapshot.Payment p : payments) {
      PaymentListingRow run = runs.latest().get(p.paymentId());
      List<String> expected = EXPECTED.get(PaymentStatus.valueOf(p.status()));
      if (run == null) {
        violations.add(
            new Violation(
                "RUN_MISSING",
                p.paymentId(),
                p.status()
                    + ", but Temporal lists no run of "
                    + WorkflowIds.payment(p.paymentId())));
      } else if (!expected.equals(shown(run))
          && !shown(run).equals(ALSO.get(PaymentStatus.valueOf(p.status())))) {
        violations.add(
            new Violation(
                "RUN_STATE",
                p.paymentId(),
                "%s, but %s's latest run is %s %s (once quiet: %s %s)"
                    .formatted(
                        p.status(),
                        run.workflowId(),
                        run.executionStatus(),
                        run.paymentState(),
                        expected.get(0),
                        expected.get(1))));
      }
    }
    return violations;
  }

  /** Whether {@code run} (a latest run, or null for none) completed {@code FULFILLED}. */
  static boolean fulfilled(PaymentListingRow run) {
    return run != null && FULFILLED.equals(shown(run));
  }

  /** The run's execution status and {@code PaymentState}. */
  private static List<String> shown(PaymentListingRow run) {
    return List.of(run.executionStatus(), String.valueOf(run.paymentState()));
  }

  /**
   * The latest run of each of {@code paymentIds}, or why Temporal could not list them ({@link
   * PaymentListingUnavailableException}'s message).
   */
  static Listed latest(WorkflowClient client, List<String> paymentIds) {
    PaymentListing listing = new PaymentListing(client);
    Map<String, PaymentListingRow> latest = new HashMap<>();
    try {
      for (int from = 0; from < paymentIds.size(); from += WorkflowStateCheck.BATCH) {
        int to = Math.min(paymentIds.size(), from + WorkflowStateCheck.BATCH);
        latest.putAll(WorkflowStateCheck.latestRuns(listing, paymentIds.subList(from, to)));
      }
    } catch (PaymentListingUnavailableException e) {
      return new Listed(Map.of(), e.getMessage());
    }
    return new Listed(latest, null);
  }
}

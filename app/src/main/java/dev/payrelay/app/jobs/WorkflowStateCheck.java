package dev.payrelay.app.jobs;

import dev.payrelay.ledger.checks.Ages;
import dev.payrelay.ledger.checks.CheckScope;
import dev.payrelay.ledger.checks.FindingKind;
import dev.payrelay.ledger.checks.PaymentChecks;
import dev.payrelay.ledger.checks.PaymentFinding;
import dev.payrelay.ledger.db.PageCursor;
import dev.payrelay.ledger.payment.PaidPayment;
import dev.payrelay.temporal.client.PaymentListing;
import dev.payrelay.temporal.client.PaymentListingPage;
import dev.payrelay.temporal.client.PaymentListingRow;
import dev.payrelay.temporal.client.PaymentListingUnavailableException;
import dev.payrelay.workflows.PaymentWorkflowState;
import dev.payrelay.workflows.WorkflowIds;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.workflowservice.v1.DescribeNamespaceRequest;
import io.temporal.client.WorkflowClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The Temporal half of {@code payrelay check}: does each PAID payment's workflow agree with the
 * ledger? Walks the ledger's PAID payments paid longer ago than the age, 100 at a time, and asks
 * Temporal's visibility store for all runs of those 100 workflows in one List Filter ({@code
 * PaymentId IN (...)}), never one describe per payment. A payment's latest run (the running one,
 * else the last started) must not show AWAITING_PAYMENT, CLOSED or EXPIRED, and there must be one.
 *
 * <p>Looks back {@link CheckScope#within()}, at most the namespace's retention: closed runs are
 * deleted after it, so an older payment without a workflow is not a finding. Costs one visibility
 * call (plus one per extra page of runs) per 100 PAID payments in that window.
 */
public final class WorkflowStateCheck {

  /** Payment ids per List Filter: a short query, and a page of runs rarely overflows. */
  public static final int BATCH = 100;

  private static final long RPC_TIMEOUT_SECONDS = 10;
  private static final Set<String> CONTRADICTING =
      Set.of(
          PaymentWorkflowState.AWAITING_PAYMENT.name(),
          PaymentWorkflowState.CLOSED.name(),
          PaymentWorkflowState.EXPIRED.name());

  private final PaymentChecks ledger;
  private final WorkflowClient client;
  private final PaymentListing listing;

  public WorkflowStateCheck(PaymentChecks ledger, WorkflowClient client) {
    this.ledger = ledger;
    this.client = client;
    this.listing = new PaymentListing(client);
  }

  /**
   * Findings of kinds {@link FindingKind#PAID_WITHOUT_WORKFLOW} and {@link
   * FindingKind#WORKFLOW_STATE_MISMATCH}, oldest paid first, at most {@link CheckScope#limit()}.
   *
   * @throws PaymentListingUnavailableException when Temporal is unreachable or cannot list; the
   *     message names Temporal and its address
   */
  public List<PaymentFinding> run(CheckScope scope) {
    Duration lookback = min(scope.within(), namespaceRetention());
    List<PaymentFinding> found = new ArrayList<>();
    PageCursor after = null;
    List<PaidPayment> page;
    do {
      page = ledger.paidPage(scope, lookback, after, BATCH);
      if (page.isEmpty()) {
        break;
      }
      Map<String, PaymentListingRow> latest =
          latestRuns(listing, page.stream().map(PaidPayment::paymentId).toList());
      for (PaidPayment p : page) {
        PaymentFinding f = compare(p, latest.get(p.paymentId()));
        if (f != null && found.size() < scope.limit()) {
          found.add(f);
        }
      }
      after = page.get(page.size() - 1).cursor();
    } while (page.size() == BATCH && found.size() < scope.limit());
    return found;
  }

  private static PaymentFinding compare(PaidPayment p, PaymentListingRow run) {
    String paid = "PAID " + Ages.of(p.paidSecondsAgo()) + " ago";
    String workflow = WorkflowIds.payment(p.paymentId());
    if (run == null) {
      return new PaymentFinding(
          p.paymentId(),
          FindingKind.PAID_WITHOUT_WORKFLOW,
          paid + ", but Temporal has no workflow " + workflow,
          p.confirmedEventId());
    }
    if (!CONTRADICTING.contains(run.paymentState())) {
      return null;
    }
    return new PaymentFinding(
        p.paymentId(),
        FindingKind.WORKFLOW_STATE_MISMATCH,
        paid
            + ", but workflow "
            + workflow
            + " ("
            + run.executionStatus()
            + ") shows PaymentState "
            + run.paymentState(),
        p.confirmedEventId());
  }

  /**
   * The latest run of each payment's workflow (the running one, else the last started), by payment
   * id; a payment without any run is absent. One List Filter per page of runs.
   *
   * @param paymentIds at most {@link #BATCH}, so the query stays short
   * @throws PaymentListingUnavailableException as {@link PaymentListing#runsOf}
   */
  public static Map<String, PaymentListingRow> latestRuns(
      PaymentListing listing, List<String> paymentIds) {
    Map<String, PaymentListingRow> latest = new HashMap<>();
    String token = null;
    do {
      PaymentListingPage runs = listing.runsOf(paymentIds, token);
      for (PaymentListingRow row : runs.payments()) {
        latest.merge(row.paymentId(), row, WorkflowStateCheck::later);
      }
      token = runs.nextPageToken();
    } while (token != null);
    return latest;
  }

  private static PaymentListingRow later(PaymentListingRow a, PaymentListingRow b) {
    boolean aRuns = "RUNNING".equals(a.executionStatus());
    boolean bRuns = "RUNNING".equals(b.executionStatus());
    if (aRuns != bRuns) {
      return aRuns ? a : b;
    }
    return b.startTime().isAfter(a.startTime()) ? b : a;
  }

  /** How long the namespace keeps closed runs; {@code within} counts when it says none. */
  private Duration namespaceRetention() {
    String namespace = client.getOptions().getNamespace();
    try {
      var ttl =
          client
              .getWorkflowServiceStubs()
              .blockingStub()
              .withDeadlineAfter(RPC_TIMEOUT_SECONDS, TimeUnit.SECONDS)
              .describeNamespace(
                  DescribeNamespaceRequest.newBuilder().setNamespace(namespace).build())
              .getConfig()
              .getWorkflowExecutionRetentionTtl();
      return ttl.getSeconds() > 0 ? Duration.ofSeconds(ttl.getSeconds()) : Duration.ofDays(36_500);
    } catch (StatusRuntimeException e) {
      String target = client.getWorkflowServiceStubs().getOptions().getTarget();
      Status.Code code = e.getStatus().getCode();
      String why = " (" + code + "): " + e.getStatus().getDescription();
      throw new PaymentListingUnavailableException(
          code == Status.Code.UNAVAILABLE || code == Status.Code.DEADLINE_EXCEEDED
              ? "Temporal is unreachable at " + target + why
              : "Temporal at " + target + " could not describe namespace " + namespace + why,
          e);
    }
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }
}

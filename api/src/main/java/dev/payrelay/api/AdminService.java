package dev.payrelay.api;

import dev.payrelay.sql.PaymentResolutions;
import dev.payrelay.sql.PaymentStore;
import dev.payrelay.sql.ResolutionOutcome;
import dev.payrelay.workflows.ResolveSignal;
import dev.payrelay.workflows.WorkflowIds;

/**
 * Operator fixes from the admin API and the CLI: both send the same {@code resolve} signal the
 * Temporal UI would. A request that could never apply is refused here and audited as REJECTED.
 */
public final class AdminService {

  /**
   * What the admin API answers for a resolve request.
   *
   * @param paymentId the payment
   * @param workflowId the workflow signalled
   * @param signalled true when the signal was sent (its result shows in the workflow's state query
   *     and in {@code operator_action})
   */
  public record ResolveAnswer(String paymentId, String workflowId, boolean signalled) {}

  private final PaymentResolutions resolutions;
  private final PaymentStore payments;
  private final PaymentSignals signals;

  /** A service auditing through {@code resolutions} and signalling through {@code signals}. */
  public AdminService(
      PaymentResolutions resolutions, PaymentStore payments, PaymentSignals signals) {
    this.resolutions = resolutions;
    this.payments = payments;
    this.signals = signals;
  }

  /**
   * Validates and sends a {@code resolve} signal.
   *
   * @throws NotFoundException if there is no such payment
   * @throws BadRequestException for a missing operator or reason or an unknown action (audited as
   *     REJECTED)
   * @throws NoRunningWorkflowException if the payment's workflow is not running
   */
  public ResolveAnswer resolve(String paymentId, ResolveSignal signal) {
    if (payments.find(paymentId).isEmpty()) {
      throw new NotFoundException("no payment " + paymentId);
    }
    ResolveSignal request = signal == null ? new ResolveSignal(null, null, null) : signal;
    String why = request.invalidBecause();
    if (why != null) {
      ResolutionOutcome audit =
          resolutions.reject(
              paymentId, request.operator(), request.action(), request.reason(), why);
      throw new BadRequestException(why + " (audited as operator_action " + audit.actionId() + ")");
    }
    signals.resolve(paymentId, request);
    return new ResolveAnswer(paymentId, WorkflowIds.payment(paymentId), true);
  }
}

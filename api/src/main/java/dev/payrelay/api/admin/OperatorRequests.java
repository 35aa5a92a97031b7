package dev.payrelay.api.admin;

import dev.payrelay.api.BadRequestException;
import dev.payrelay.api.ConflictException;
import dev.payrelay.api.ServiceUnavailableException;
import dev.payrelay.api.auth.ApiKey;
import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.domain.operator.SignalTokens;
import dev.payrelay.ledger.operator.PaymentResolutions;
import dev.payrelay.ledger.payment.PaymentDeadlines;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.workflows.OperatorSignal;
import dev.payrelay.workflows.WorkflowIds;
import java.time.Clock;
import java.time.Instant;

/**
 * The {@code requery} and {@code extendDeadline} signals from the admin API, each carrying a signal
 * token for the caller, so the activity that records them audits the caller key's operator as
 * verified ({@code SignalIdentity}). A request that could never apply is refused here and audited
 * as REJECTED: a missing reason or a deadline that is not one (400), a payment the ledger no longer
 * holds PENDING (409), since the ledger, not the channel, is the truth of a settled payment.
 */
final class OperatorRequests {

  /** The audited action of a requery, as the workflow names it. */
  static final String REQUERY = "REQUERY";

  /** The audited action of a deadline extension, as the workflow names it. */
  static final String EXTEND_DEADLINE = "EXTEND_DEADLINE";

  private final PaymentResolutions resolutions;
  private final PaymentStore payments;
  private final PaymentSignals signals;
  private final SignalTokenIssuer tokens;
  private final Clock clock;

  OperatorRequests(
      PaymentResolutions resolutions,
      PaymentStore payments,
      PaymentSignals signals,
      SignalTokenIssuer tokens,
      Clock clock) {
    this.resolutions = resolutions;
    this.payments = payments;
    this.signals = signals;
    this.tokens = tokens;
    this.clock = clock;
  }

  /**
   * As {@link AdminService#requery}.
   *
   * @throws dev.payrelay.api.NotFoundException no such payment, or another tenant's
   */
  AdminService.OperatorRequestAnswer requery(String paymentId, String reason, ApiKey caller) {
    PaymentRow payment = CallerScope.payment(payments, paymentId, caller);
    OperatorSignal request = new OperatorSignal(caller.operator(), reason, null);
    refuseInvalid(payment, REQUERY, request, request.invalidBecause(false));
    refuseSettled(payment, REQUERY, request);
    OperatorSignal signed =
        new OperatorSignal(
            request.operator(),
            request.reason(),
            null,
            tokens.token(paymentId, REQUERY, paymentId, caller));
    send(payment, REQUERY, request, () -> signals.requery(payment, signed));
    return answer(payment, REQUERY, null, caller);
  }

  /** As {@link AdminService#extendDeadline}. */
  AdminService.OperatorRequestAnswer extendDeadline(
      String paymentId, DeadlineChange change, ApiKey caller) {
    PaymentRow payment = CallerScope.payment(payments, paymentId, caller);
    DeadlineChange asked = change == null ? new DeadlineChange(null, null, null, null) : change;
    OperatorSignal unsigned = new OperatorSignal(caller.operator(), asked.reason(), null);
    refuseInvalid(payment, EXTEND_DEADLINE, unsigned, unsigned.invalidBecause(false));
    refuseSettled(payment, EXTEND_DEADLINE, unsigned);
    Instant until;
    try {
      until =
          asked.newDeadline(payment.expiresAt(), clock.instant(), PaymentDeadlines.MAX_EXTENSION);
    } catch (IllegalArgumentException e) {
      throw refused(payment, EXTEND_DEADLINE, unsigned, e.getMessage(), BadRequestException::new);
    }
    OperatorSignal signed =
        new OperatorSignal(
            unsigned.operator(),
            unsigned.reason(),
            until.toString(),
            tokens.token(
                paymentId, EXTEND_DEADLINE, SignalTokens.deadlineTarget(paymentId, until), caller));
    send(payment, EXTEND_DEADLINE, unsigned, () -> signals.extendDeadline(payment, signed));
    return answer(payment, EXTEND_DEADLINE, until, caller);
  }

  private void refuseInvalid(
      PaymentRow payment, String action, OperatorSignal request, String why) {
    if (why != null) {
      throw refused(payment, action, request, why, BadRequestException::new);
    }
  }

  private void refuseSettled(PaymentRow payment, String action, OperatorSignal request) {
    if (payment.status() != PaymentStatus.PENDING) {
      String why =
          "payment "
              + payment.paymentId()
              + " is "
              + payment.status()
              + ", not PENDING: the ledger has settled it, and "
              + (REQUERY.equals(action)
                  ? "asking the channel again would not change that"
                  : "its deadline no longer applies");
      throw refused(payment, action, request, why, ConflictException::new);
    }
  }

  /** Audits {@code request} as REJECTED for {@code why}; the exception to answer with. */
  private RuntimeException refused(
      PaymentRow payment,
      String action,
      OperatorSignal request,
      String why,
      java.util.function.Function<String, RuntimeException> answer) {
    return answer.apply(AdminService.audited(why, reject(payment, action, request, why)));
  }

  private long reject(PaymentRow payment, String action, OperatorSignal request, String why) {
    return resolutions
        .reject(payment.paymentId(), request.operator(), action, request.reason(), why)
        .actionId();
  }

  /**
   * Sends a signal; one Temporal did not take is audited as not delivered.
   *
   * @throws ServiceUnavailableException when Temporal could not take it
   */
  private void send(PaymentRow payment, String action, OperatorSignal request, Runnable signal) {
    try {
      signal.run();
    } catch (RuntimeException e) {
      throw AdminService.notDelivered(e, action, why -> reject(payment, action, request, why));
    }
  }

  private static AdminService.OperatorRequestAnswer answer(
      PaymentRow payment, String action, Instant until, ApiKey caller) {
    return new AdminService.OperatorRequestAnswer(
        payment.paymentId(),
        WorkflowIds.payment(payment.paymentId()),
        action,
        until,
        caller.operator(),
        REQUERY.equals(action) ? requeryNote(payment.paymentId()) : null);
  }

  /**
   * A requery's answer is the signal sent, never the channel's answer: the workflow asks the
   * channel when it takes the signal, and what the channel said shows in the trail afterwards.
   */
  static String requeryNote(String paymentId) {
    return "the channel query was asked; this answer does not carry the channel's answer, which"
        + " shows in the payment's trail once the channel answers (GET /v1/payments/"
        + paymentId
        + ": workflow.waitingFor and workflow.currentDetails; payrelay payment show "
        + paymentId
        + ")";
  }
}

package dev.payrelay.api.admin;

import dev.payrelay.api.ApiInput;
import dev.payrelay.api.BadRequestException;
import dev.payrelay.api.ConflictException;
import dev.payrelay.api.NotFoundException;
import dev.payrelay.api.ServiceUnavailableException;
import dev.payrelay.api.auth.ApiKey;
import dev.payrelay.domain.ResolutionAction;
import dev.payrelay.domain.event.OutboxStatus;
import dev.payrelay.ledger.operator.PaymentResolutions;
import dev.payrelay.ledger.outbox.DeadEvents;
import dev.payrelay.ledger.outbox.OutboxListing;
import dev.payrelay.ledger.outbox.OutboxRow;
import dev.payrelay.ledger.outbox.OutboxStore;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.workflows.EventOperatorSignal;
import dev.payrelay.workflows.ResolveSignal;
import dev.payrelay.workflows.WorkflowIds;
import io.grpc.StatusRuntimeException;
import io.temporal.client.WorkflowServiceException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Operator fixes from the admin API (which the CLI calls): the same {@code resolve} signal the
 * Temporal UI would send, carrying a signal token for the caller ({@link SignalTokenIssuer}) so the
 * activity that applies it audits the caller's operator as verified. A request that could never
 * apply is refused here and audited as REJECTED.
 *
 * <p>Every method acts for a caller, an {@link ApiKey}: its operator is the one recorded in every
 * audit row (an {@code operator} field in a request body is ignored), and a payment or event of a
 * tenant the key may not act for is answered as if it did not exist (404), so a key learns nothing
 * about other tenants.
 */
public final class AdminService {

  /**
   * What the admin API answers for a resolve request.
   *
   * @param paymentId the payment
   * @param workflowId the workflow signalled
   * @param signalled true when the signal was sent (its result shows in the workflow's state query
   *     and in {@code operator_action})
   * @param operator the operator recorded, the caller key's
   */
  public record ResolveAnswer(
      String paymentId, String workflowId, boolean signalled, String operator) {}

  /**
   * What the admin API answers for an event operation.
   *
   * @param eventId the event
   * @param paymentId the payment the event belongs to
   * @param workflowId the payment workflow signalled
   * @param operator the operator recorded, the caller key's
   */
  public record EventAnswer(String eventId, String paymentId, String workflowId, String operator) {}

  /**
   * What the admin API answers for a {@code requery} or {@code extendDeadline}: the signal was
   * sent; its verdict is the payment's new {@code operator_action} row (APPLIED or REJECTED) and
   * shows in the workflow's {@code state} query.
   *
   * @param paymentId the payment
   * @param workflowId the workflow signalled
   * @param action {@code REQUERY} or {@code EXTEND_DEADLINE}, as audited
   * @param until the deadline asked for, for {@code EXTEND_DEADLINE}; null for a requery
   * @param operator the operator recorded, the caller key's
   * @param note what the answer does not carry and where to read it: for a requery, that the
   *     channel's answer comes later and shows in the payment's trail; null for an extension
   */
  public record OperatorRequestAnswer(
      String paymentId,
      String workflowId,
      String action,
      java.time.Instant until,
      String operator,
      String note) {}

  private final PaymentResolutions resolutions;
  private final DeadEvents deadEvents;
  private final PaymentStore payments;
  private final OutboxStore outbox;
  private final PaymentSignals signals;
  private final SignalTokenIssuer tokens;
  private final OperatorRequests requests;

  /**
   * A service auditing through the stores and signalling through {@code signals}, each signal
   * carrying a token from {@code tokens} for the caller, so the activity that applies it audits the
   * caller's operator as verified.
   */
  public AdminService(
      PaymentResolutions resolutions,
      DeadEvents deadEvents,
      PaymentStore payments,
      OutboxStore outbox,
      PaymentSignals signals,
      SignalTokenIssuer tokens) {
    this.resolutions = resolutions;
    this.deadEvents = deadEvents;
    this.payments = payments;
    this.outbox = outbox;
    this.signals = signals;
    this.tokens = tokens;
    this.requests =
        new OperatorRequests(resolutions, payments, signals, tokens, java.time.Clock.systemUTC());
  }

  /**
   * A signal token, with the whole signal input, for a fix sent through the Temporal UI or CLI:
   * {@link SignalTokenIssuer#issue}.
   */
  public SignalTokenIssuer.SignalTokenAnswer signalToken(
      String paymentId, SignalTokenRequest request, ApiKey caller) {
    return tokens.issue(paymentId, request, caller);
  }

  /**
   * Validates and sends a {@code resolve} signal as {@code caller}'s operator.
   *
   * @param signal the request's reason and action; its operator is replaced by the caller's
   * @throws NotFoundException if there is no such payment, or it is another tenant's
   * @throws BadRequestException for a missing operator or reason or an unknown action (audited as
   *     REJECTED)
   * @throws ServiceUnavailableException when Temporal could not take the signal (audited as
   *     REJECTED, "not delivered"); the operator may send it again
   */
  public ResolveAnswer resolve(String paymentId, ResolveSignal signal, ApiKey caller) {
    PaymentRow payment = CallerScope.payment(payments, paymentId, caller);
    ResolveSignal request =
        signal == null
            ? new ResolveSignal(caller.operator(), null, null)
            : new ResolveSignal(caller.operator(), signal.reason(), signal.action());
    String why = request.invalidBecause();
    if (why != null) {
      throw new BadRequestException(audited(why, rejectResolve(paymentId, request, why)));
    }
    ResolveSignal signed =
        new ResolveSignal(
            request.operator(),
            request.reason(),
            request.action(),
            tokens.token(
                paymentId,
                ResolutionAction.parse(request.action()).orElseThrow().name(),
                paymentId,
                caller));
    try {
      signals.resolve(payment, signed);
    } catch (RuntimeException e) {
      throw notDelivered(
          e, "resolve", notDeliveredWhy -> rejectResolve(paymentId, request, notDeliveredWhy));
    }
    return new ResolveAnswer(paymentId, WorkflowIds.payment(paymentId), true, caller.operator());
  }

  /**
   * Sends a {@code requery} signal as {@code caller}'s operator: the payment's workflow asks the
   * channel now instead of at its next scheduled query.
   *
   * @param reason why, for the audit row; required
   * @throws NotFoundException if there is no such payment, or it is another tenant's
   * @throws BadRequestException for a missing reason (audited as REJECTED)
   * @throws ConflictException if the ledger holds the payment PAID, CLOSED or EXPIRED (audited as
   *     REJECTED): the ledger is the truth of a settled payment
   * @throws ServiceUnavailableException when Temporal could not take the signal (audited as
   *     REJECTED, "not delivered")
   */
  public OperatorRequestAnswer requery(String paymentId, String reason, ApiKey caller) {
    return requests.requery(paymentId, reason, caller);
  }

  /**
   * Sends an {@code extendDeadline} signal as {@code caller}'s operator, to the deadline {@code
   * change} names ({@link DeadlineChange#until} or the current deadline plus {@link
   * DeadlineChange#by}).
   *
   * @throws NotFoundException if there is no such payment, or it is another tenant's
   * @throws BadRequestException for a missing reason, neither or both of until and by, a malformed
   *     one, or a deadline not later than the current one and now or more than 366 days ahead
   *     (audited as REJECTED)
   * @throws ConflictException if the payment is not PENDING (audited as REJECTED)
   * @throws ServiceUnavailableException when Temporal could not take the signal (audited as
   *     REJECTED, "not delivered")
   */
  public OperatorRequestAnswer extendDeadline(
      String paymentId, DeadlineChange change, ApiKey caller) {
    return requests.extendDeadline(paymentId, change, caller);
  }

  /** Audits {@code request} as REJECTED for {@code why}; the {@code operator_action} row's id. */
  private long rejectResolve(String paymentId, ResolveSignal request, String why) {
    return resolutions
        .reject(paymentId, request.operator(), request.action(), request.reason(), why)
        .actionId();
  }

  /** {@code message} naming the {@code operator_action} row that audited the refusal. */
  static String audited(String message, long actionId) {
    return message + " (audited as operator_action " + actionId + ")";
  }

  /**
   * Lists outbox rows for operators: DEAD ones, or stuck ones (PENDING/DISPATCHED idle for long).
   *
   * @throws BadRequestException for an unknown status or a limit outside 1..1000
   */
  public List<OutboxListing> outbox(
      String status, String eventType, long minIdleSeconds, int limit) {
    OutboxStatus wanted;
    try {
      wanted = OutboxStatus.valueOf(status == null ? "DEAD" : status.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new BadRequestException(
          "status must be one of " + Arrays.toString(OutboxStatus.values()));
    }
    if (limit < 1 || limit > 1000 || minIdleSeconds < 0) {
      throw new BadRequestException("limit must be 1..1000 and olderThanSeconds >= 0");
    }
    ApiInput.optionalId(eventType, "eventType", 64);
    return outbox.list(wanted, eventType, Duration.ofSeconds(minIdleSeconds), limit);
  }

  /**
   * One outbox event ({@code aggregateId} is its payment's id).
   *
   * @throws NotFoundException if there is no such event, or its payment is another tenant's
   */
  public OutboxRow event(String eventId, ApiKey caller) {
    OutboxRow event =
        outbox.find(eventId).orElseThrow(() -> new NotFoundException("no outbox event " + eventId));
    payments
        .find(event.aggregateId())
        .filter(p -> caller.mayActFor(p.tenantId()))
        .orElseThrow(() -> new NotFoundException("no outbox event " + eventId));
    return event;
  }

  /**
   * Asks the event's payment workflow to replay ({@code replay=true}) or discard a DEAD event, as
   * {@code caller}'s operator.
   *
   * @throws NotFoundException if there is no such event, or its payment is another tenant's
   * @throws BadRequestException for a missing reason (audited as REJECTED)
   * @throws ConflictException if the event is not DEAD (audited as REJECTED)
   * @throws ServiceUnavailableException when Temporal could not take the signal (audited as
   *     REJECTED, "not delivered")
   */
  public EventAnswer operateOnEvent(String eventId, String reason, boolean replay, ApiKey caller) {
    OutboxRow event = event(eventId, caller);
    PaymentRow payment = payments.find(event.aggregateId()).orElseThrow();
    String operator = caller.operator();
    String action = replay ? "REPLAY_EVENT" : "DISCARD_EVENT";
    EventOperatorSignal signal = new EventOperatorSignal(eventId, operator, reason);
    String why = signal.invalidBecause();
    if (why != null) {
      throw new BadRequestException(
          audited(why, deadEvents.reject(eventId, operator, reason, action, why).actionId()));
    }
    if (event.status() != OutboxStatus.DEAD) {
      // Answered now rather than after a signal: the workflow would refuse it the same way.
      String refused = "event " + eventId + " is " + event.status() + ", not DEAD";
      throw new ConflictException(
          audited(
              refused, deadEvents.reject(eventId, operator, reason, action, refused).actionId()));
    }
    EventOperatorSignal signed =
        new EventOperatorSignal(
            eventId, operator, reason, tokens.token(payment.paymentId(), action, eventId, caller));
    try {
      if (replay) {
        signals.replayEvent(payment, signed);
      } else {
        signals.discardEvent(payment, signed);
      }
    } catch (RuntimeException e) {
      throw notDelivered(
          e,
          action,
          notDeliveredWhy ->
              deadEvents.reject(eventId, operator, reason, action, notDeliveredWhy).actionId());
    }
    return new EventAnswer(
        eventId, payment.paymentId(), WorkflowIds.payment(payment.paymentId()), operator);
  }

  /**
   * A signal Temporal did not take (unreachable, or refusing the call): audited through {@code
   * audit} as not delivered, answered as 503 so the operator knows to send it again. Anything else
   * is rethrown as it is.
   */
  static RuntimeException notDelivered(
      RuntimeException e, String action, java.util.function.ToLongFunction<String> audit) {
    if (!(e instanceof WorkflowServiceException || e instanceof StatusRuntimeException)) {
      return e;
    }
    String why =
        "not delivered: Temporal did not take the " + action + " signal: " + e.getMessage();
    long actionId = audit.applyAsLong(why);
    return new ServiceUnavailableException(
        "Temporal unavailable: the "
            + action
            + " signal was not delivered (audited as operator_action "
            + actionId
            + "); send it again when Temporal is back",
        e);
  }

  /**
   * Replays every DEAD event matching {@code eventType} (null for all), oldest first, up to {@code
   * limit}, as {@code caller}'s operator; each replay is its own signal and audit row.
   */
  public List<EventAnswer> replayAll(String eventType, String reason, int limit, ApiKey caller) {
    List<EventAnswer> answers = new ArrayList<>();
    for (OutboxListing dead : outbox(OutboxStatus.DEAD.name(), eventType, 0, limit)) {
      answers.add(operateOnEvent(dead.eventId(), reason, true, caller));
    }
    return answers;
  }
}

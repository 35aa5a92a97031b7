package dev.payrelay.api.admin;

import dev.payrelay.api.BadRequestException;
import dev.payrelay.api.NotFoundException;
import dev.payrelay.api.auth.ApiKey;
import dev.payrelay.domain.ResolutionAction;
import dev.payrelay.domain.operator.SignalGrant;
import dev.payrelay.domain.operator.SignalTokens;
import dev.payrelay.ledger.outbox.OutboxStore;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.ledger.refund.RefundRow;
import dev.payrelay.workflows.WorkflowIds;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Signs the tokens that give an operator signal sent outside the admin API (Temporal UI, {@code
 * temporal workflow signal}) a verified identity ({@link SignalTokens}): for the caller's API key
 * and operator, one workflow, one action and one target, for a short time. The admin API's own
 * signals carry one too.
 */
public final class SignalTokenIssuer {

  /**
   * What {@code POST /v1/admin/payments/{id}/signal-token} answers.
   *
   * @param workflowId the workflow to signal
   * @param signal the signal's name ({@code resolve}, {@code replayEvent}, ...)
   * @param input the signal's JSON input, token included, to paste as it is
   * @param operator the operator the audit will record, the caller key's
   * @param expiresAt the token's last valid instant; the fix must be applied by then
   */
  public record SignalTokenAnswer(
      String workflowId,
      String signal,
      Map<String, String> input,
      String operator,
      Instant expiresAt) {}

  private static final Logger log = LoggerFactory.getLogger(SignalTokenIssuer.class);

  private final SignalTokens tokens;
  private final PaymentStore payments;
  private final OutboxStore outbox;

  /** Signs with {@code tokens}; payments and events are looked up to scope them to the caller. */
  public SignalTokenIssuer(SignalTokens tokens, PaymentStore payments, OutboxStore outbox) {
    this.tokens = tokens;
    this.payments = payments;
    this.outbox = outbox;
  }

  /**
   * A token and the whole signal input for {@code request} on {@code paymentId}, as {@code caller}.
   *
   * @throws NotFoundException no such payment or event, or one of a tenant the key may not act for
   * @throws BadRequestException unknown action, missing reason, event id or deadline
   */
  public SignalTokenAnswer issue(String paymentId, SignalTokenRequest request, ApiKey caller) {
    PaymentRow payment = CallerScope.payment(payments, paymentId, caller);
    if (request == null || request.reason() == null || request.reason().isBlank()) {
      throw new BadRequestException("reason is required");
    }
    String action = String.valueOf(request.action()).trim().toUpperCase(Locale.ROOT);
    Map<String, String> input = new LinkedHashMap<>();
    String signal = signalOf(action, request, payment, input);
    String target =
        input.containsKey("until")
            ? SignalTokens.deadlineTarget(paymentId, Instant.parse(input.get("until")))
            : input.getOrDefault("eventId", paymentId);
    SignalGrant grant = grant(paymentId, action, target, caller);
    input.put("operator", caller.operator());
    input.put("reason", request.reason().strip());
    input.put("token", tokens.sign(grant));
    log.info("signal token for {} {} on {} by API key {}", signal, action, target, caller.id());
    return new SignalTokenAnswer(
        grant.workflowId(), signal, input, caller.operator(), grant.expiresAt());
  }

  /** The token the admin API attaches to its own signal of {@code action} on {@code target}. */
  String token(String paymentId, String action, String target, ApiKey caller) {
    return tokens.sign(grant(paymentId, action, target, caller));
  }

  /**
   * A token and the whole signal input for {@code fix} on {@code refund}, as {@code caller}: the
   * input of the refund workflow's {@code requery}, {@code acceptAsRefunded} or {@code markFailed}
   * ({@code {operator, reason, evidence?, token}}), signed for workflow {@code refund-{refundId}},
   * the fix's action and the refund id as target. The caller's scope is checked by the caller.
   *
   * @param reason why; checked non-blank by the caller
   * @param evidence the channel's refund id for {@code ACCEPT_AS_REFUNDED}, else null
   */
  SignalTokenAnswer issueForRefund(
      RefundRow refund, RefundFix fix, String reason, String evidence, ApiKey caller) {
    SignalGrant grant = refundGrant(refund.refundId(), fix, caller);
    Map<String, String> input = new LinkedHashMap<>();
    input.put("operator", caller.operator());
    input.put("reason", reason.strip());
    if (fix.needsEvidence()) {
      input.put("evidence", evidence.strip());
    }
    input.put("token", tokens.sign(grant));
    log.info(
        "signal token for {} {} on {} by API key {}",
        fix.signal(),
        fix.name(),
        refund.refundId(),
        caller.id());
    return new SignalTokenAnswer(
        grant.workflowId(), fix.signal(), input, caller.operator(), grant.expiresAt());
  }

  /** The token the admin API attaches to its own {@code fix} signal on {@code refundId}. */
  String refundToken(String refundId, RefundFix fix, ApiKey caller) {
    return tokens.sign(refundGrant(refundId, fix, caller));
  }

  private SignalGrant refundGrant(String refundId, RefundFix fix, ApiKey caller) {
    return tokens.grant(
        WorkflowIds.refund(refundId), fix.name(), refundId, caller.operator(), caller.id());
  }

  private SignalGrant grant(String paymentId, String action, String target, ApiKey caller) {
    return tokens.grant(
        WorkflowIds.payment(paymentId), action, target, caller.operator(), caller.id());
  }

  /** The signal carrying {@code action}; puts its action-specific fields into {@code input}. */
  private String signalOf(
      String action, SignalTokenRequest r, PaymentRow payment, Map<String, String> input) {
    if (ResolutionAction.parse(action).isPresent()) {
      input.put("action", action);
      return "resolve";
    }
    switch (action) {
      case "REPLAY_EVENT", "DISCARD_EVENT" -> {
        input.put("eventId", ownEvent(r.eventId(), payment));
        return action.equals("REPLAY_EVENT") ? "replayEvent" : "discardEvent";
      }
      case "REQUERY" -> {
        return "requery";
      }
      case "EXTEND_DEADLINE" -> {
        if (r.until() == null || r.until().isBlank()) {
          throw new BadRequestException("until is required for EXTEND_DEADLINE");
        }
        try {
          input.put("until", Instant.parse(r.until().strip()).toString());
        } catch (DateTimeParseException e) {
          throw new BadRequestException(
              "until must be an ISO-8601 instant such as 2026-12-01T12:00:00Z, got " + r.until());
        }
        return "extendDeadline";
      }
      default ->
          throw new BadRequestException(
              "unknown action "
                  + r.action()
                  + "; one of ACCEPT_AS_PAID, CLOSE, MARK_FOR_REFUND, ACKNOWLEDGE, REPLAY_EVENT,"
                  + " DISCARD_EVENT, REQUERY, EXTEND_DEADLINE");
    }
  }

  private String ownEvent(String eventId, PaymentRow payment) {
    if (eventId == null || eventId.isBlank()) {
      throw new BadRequestException("eventId is required for an event operation");
    }
    return outbox
        .find(eventId.strip())
        .filter(e -> e.aggregateId().equals(payment.paymentId()))
        .orElseThrow(
            () ->
                new NotFoundException("no outbox event " + eventId + " of " + payment.paymentId()))
        .eventId();
  }
}

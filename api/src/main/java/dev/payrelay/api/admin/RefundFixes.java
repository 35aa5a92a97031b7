package dev.payrelay.api.admin;

import dev.payrelay.api.ApiInput;
import dev.payrelay.api.BadRequestException;
import dev.payrelay.api.ConflictException;
import dev.payrelay.api.NotFoundException;
import dev.payrelay.api.ServiceUnavailableException;
import dev.payrelay.api.auth.ApiKey;
import dev.payrelay.ledger.operator.OperatorAction;
import dev.payrelay.ledger.operator.OperatorActions;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.ledger.refund.RefundAudit;
import dev.payrelay.ledger.refund.RefundResolutions;
import dev.payrelay.ledger.refund.RefundRow;
import dev.payrelay.ledger.refund.RefundStore;
import dev.payrelay.workflows.RefundSignal;
import dev.payrelay.workflows.WorkflowIds;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;

/**
 * An operator's fixes of a refund from the admin API ({@link RefundFix}): the refund workflow's
 * {@code requery}, {@code acceptAsRefunded} and {@code markFailed} signals, each carrying a signal
 * token for the caller's API key, so the activity that applies it ({@code RefundOperatorDesk})
 * audits the key's operator as verified and production mode does not refuse it. The answer waits,
 * at most {@code verdictWait}, for the workflow's verdict: the {@code operator_action} row its
 * activity writes.
 *
 * <p>A request that could never apply is refused here and audited as REJECTED, like the payment's
 * ({@link OperatorRequests}): a missing or too long reason or evidence (400), a refund the ledger
 * already settled SUCCEEDED or FAILED (409), since the ledger, not an operator, is then the truth.
 * A refund of a tenant the key may not act for is answered as missing (404).
 */
public final class RefundFixes {

  /** The longest reason, as {@code operator_action.reason} holds it. */
  static final int MAX_REASON = 1000;

  /** The longest channel refund id, as {@code refund.channel_refund_id} holds it. */
  static final int MAX_CHANNEL_REFUND_ID = 128;

  /**
   * How long the API's answer waits for the workflow's verdict: a worker applies a signal within a
   * second or two; 20 s stays below the CLI's 30 s request timeout.
   */
  public static final Duration VERDICT_WAIT = Duration.ofSeconds(20);

  /** How often the answer looks for the workflow's verdict. */
  private static final Duration POLL = Duration.ofMillis(200);

  /**
   * What a refund fix came to.
   *
   * @param refundId the refund
   * @param workflowId the workflow signalled, {@code refund-{refundId}}
   * @param action {@code REQUERY}, {@code ACCEPT_AS_REFUNDED} or {@code MARK_FAILED}, as audited
   * @param operator the operator recorded, the caller key's
   * @param verdict {@code APPLIED}, {@code REFUSED} (the workflow refused it: the refund settled
   *     meanwhile, or no verified identity in production), or {@code PENDING} when the workflow
   *     recorded none within the wait (the signal was sent; its row comes later)
   * @param result the audit row's result ({@code APPLIED}, {@code REJECTED}, {@code REFUSED}), or
   *     null while PENDING
   * @param details what was done or why not, as audited; for PENDING, where to look
   * @param refundState the refund's ledger state after the verdict (or when the wait ended)
   */
  public record RefundFixAnswer(
      String refundId,
      String workflowId,
      String action,
      String operator,
      String verdict,
      String result,
      String details,
      String refundState) {}

  private final RefundStore refunds;
  private final PaymentStore payments;
  private final RefundResolutions resolutions;
  private final RefundAudit audit;
  private final RefundSignals signals;
  private final SignalTokenIssuer tokens;
  private final Duration verdictWait;

  /**
   * Fixes over the ledger's refunds, audited through {@code resolutions}, sent through {@code
   * signals} with tokens from {@code tokens}.
   *
   * @param verdictWait how long an answer waits for the workflow's verdict
   */
  public RefundFixes(
      RefundStore refunds,
      PaymentStore payments,
      RefundResolutions resolutions,
      RefundAudit audit,
      RefundSignals signals,
      SignalTokenIssuer tokens,
      Duration verdictWait) {
    this.refunds = refunds;
    this.payments = payments;
    this.resolutions = resolutions;
    this.audit = audit;
    this.signals = signals;
    this.tokens = tokens;
    this.verdictWait = verdictWait;
  }

  /**
   * Sends {@code fix} for the refund as {@code caller}'s operator and waits for its verdict.
   *
   * @param body the reason and, for {@code ACCEPT_AS_REFUNDED}, the channel's refund id; null is an
   *     empty body
   * @throws NotFoundException no such refund, or another tenant's
   * @throws BadRequestException missing or too long reason or channel refund id (audited REJECTED)
   * @throws ConflictException the ledger holds the refund SUCCEEDED or FAILED (audited REJECTED)
   * @throws ServiceUnavailableException when Temporal did not take the signal (audited REJECTED,
   *     "not delivered"); the operator may send it again
   */
  public RefundFixAnswer fix(String refundId, RefundFix fix, RefundFixRequest body, ApiKey caller)
      throws InterruptedException {
    RefundRow refund = scoped(refundId, caller);
    RefundSignal request = checked(refund, fix, body, caller);
    refuseSettled(refund, fix, request);
    long before = audit.lastActionId(refundId);
    RefundSignal signed =
        new RefundSignal(
            request.operator(),
            request.reason(),
            request.evidence(),
            tokens.refundToken(refundId, fix, caller));
    PaymentRow payment = payments.find(refund.paymentId()).orElseThrow();
    try {
      signals.send(refund, payment, fix, signed);
    } catch (RuntimeException e) {
      throw AdminService.notDelivered(e, fix.signal(), why -> reject(refund, fix, request, why));
    }
    return verdict(refundId, fix, caller.operator(), before);
  }

  /**
   * A signal token with the whole input of {@code body.action()}'s signal, for a fix sent from the
   * Temporal UI or {@code temporal workflow signal} ({@link SignalTokenIssuer#issueForRefund}).
   * Nothing is sent or audited.
   *
   * @throws NotFoundException no such refund, or another tenant's
   * @throws BadRequestException an unknown action, a missing reason or, for {@code
   *     ACCEPT_AS_REFUNDED}, a missing channel refund id
   */
  public SignalTokenIssuer.SignalTokenAnswer signalToken(
      String refundId, RefundFixRequest body, ApiKey caller) {
    RefundRow refund = scoped(refundId, caller);
    RefundFixRequest asked = body == null ? new RefundFixRequest(null, null, null, null) : body;
    RefundFix fix =
        RefundFix.parse(asked.action())
            .orElseThrow(
                () ->
                    new BadRequestException(
                        "unknown action "
                            + asked.action()
                            + "; one of REQUERY, ACCEPT_AS_REFUNDED, MARK_FAILED"));
    String why = invalidBecause(fix, asked, caller);
    if (why != null) {
      throw new BadRequestException(why);
    }
    return tokens.issueForRefund(refund, fix, asked.reason(), asked.channelRefundId(), caller);
  }

  private RefundRow scoped(String refundId, ApiKey caller) {
    return refunds
        .find(refundId)
        .filter(r -> caller.mayActFor(r.tenantId()))
        .orElseThrow(() -> new NotFoundException("no refund " + refundId));
  }

  /** The caller's signal, unsigned; refused (400, audited) when it could never apply. */
  private RefundSignal checked(
      RefundRow refund, RefundFix fix, RefundFixRequest body, ApiKey caller) {
    RefundFixRequest asked = body == null ? new RefundFixRequest(null, null, null, null) : body;
    RefundSignal request =
        new RefundSignal(
            caller.operator(),
            asked.reason(),
            fix.needsEvidence() ? strippedOrNull(asked.channelRefundId()) : null,
            null);
    String why = invalidBecause(fix, asked, caller);
    if (why != null) {
      throw refused(refund, fix, request, why, BadRequestException::new);
    }
    return request;
  }

  /**
   * Why {@code asked} could never apply, or null: the workflow's own rule ({@link
   * RefundSignal#invalidBecause}), then what the ledger's columns hold.
   */
  private static String invalidBecause(RefundFix fix, RefundFixRequest asked, ApiKey caller) {
    String evidence = fix.needsEvidence() ? asked.channelRefundId() : null;
    String why =
        new RefundSignal(caller.operator(), asked.reason(), evidence, null)
            .invalidBecause(fix.needsEvidence());
    if (why != null) {
      return why.startsWith("evidence")
          ? "channelRefundId is required: the channel's refund id, read at the channel, is the"
              + " evidence that the money went back"
          : why;
    }
    if (asked.reason().length() > MAX_REASON) {
      return "reason must be at most " + MAX_REASON + " characters";
    }
    if (evidence != null) {
      try {
        ApiInput.requireId(evidence.strip(), "channelRefundId", MAX_CHANNEL_REFUND_ID);
      } catch (BadRequestException e) {
        return e.getMessage();
      }
    }
    return null;
  }

  private void refuseSettled(RefundRow refund, RefundFix fix, RefundSignal request) {
    if (refund.state().isFinal()) {
      String why =
          "refund "
              + refund.refundId()
              + " is "
              + refund.state()
              + " in the ledger: the channel's word, or an earlier operator's, stands; nothing was"
              + " sent";
      throw refused(refund, fix, request, why, ConflictException::new);
    }
  }

  /** Audits {@code request} as REJECTED for {@code why}; the exception to answer with. */
  private RuntimeException refused(
      RefundRow refund,
      RefundFix fix,
      RefundSignal request,
      String why,
      Function<String, RuntimeException> answer) {
    return answer.apply(AdminService.audited(why, reject(refund, fix, request, why)));
  }

  private long reject(RefundRow refund, RefundFix fix, RefundSignal request, String why) {
    return resolutions
        .reject(
            new OperatorAction(
                null,
                request.operator(),
                fix.name(),
                RefundResolutions.TARGET,
                refund.refundId(),
                request.reason()),
            why)
        .actionId();
  }

  /** The workflow's audit row for this fix written after row {@code before}, waited for. */
  private RefundFixAnswer verdict(String refundId, RefundFix fix, String operator, long before)
      throws InterruptedException {
    long deadline = System.nanoTime() + verdictWait.toNanos();
    Optional<RefundAudit.Numbered> row = audit.firstAfter(refundId, before, fix.name(), operator);
    while (row.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(POLL.toMillis());
      row = audit.firstAfter(refundId, before, fix.name(), operator);
    }
    String state = refunds.find(refundId).map(r -> r.state().name()).orElse(null);
    String workflowId = WorkflowIds.refund(refundId);
    if (row.isEmpty()) {
      return new RefundFixAnswer(
          refundId,
          workflowId,
          fix.name(),
          operator,
          "PENDING",
          null,
          "signal "
              + fix.signal()
              + " sent; "
              + workflowId
              + " recorded no verdict within "
              + verdictWait.toSeconds()
              + " s (is a worker running?): see payrelay refund show "
              + refundId,
          state);
    }
    var entry = row.get().entry();
    return new RefundFixAnswer(
        refundId,
        workflowId,
        fix.name(),
        operator,
        OperatorActions.APPLIED.equals(entry.result()) ? "APPLIED" : "REFUSED",
        entry.result(),
        entry.details(),
        state);
  }

  private static String strippedOrNull(String s) {
    return s == null || s.isBlank() ? null : s.strip();
  }
}

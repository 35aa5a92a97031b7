package dev.payrelay.activities;

import dev.payrelay.domain.operator.SignalTokens;
import dev.payrelay.domain.operator.SignalVerdict;
import dev.payrelay.workflows.WorkflowIds;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whose name an operator action's {@code operator_action} row records, and whether the action may
 * run at all. A signal's JSON names whoever its sender typed (anyone who can signal the workflow in
 * the Temporal UI or with {@code temporal workflow signal}), so the name is believed only with a
 * valid signal token ({@link SignalTokens}) that the admin API signed for this payment's workflow,
 * this action and this target: the audit then records the token's operator. Otherwise it records
 * {@code unverified: <claimed name>}, and in production mode an action that moves money or closes a
 * cause ({@link #guarded}) is refused. Checked here, in the activity, because workflow code must
 * stay deterministic and holds no secret.
 */
public final class SignalIdentity {

  /** What an audited name without a verified identity starts with. */
  public static final String UNVERIFIED = "unverified: ";

  private static final Logger log = LoggerFactory.getLogger(SignalIdentity.class);

  private final SignalTokens tokens;
  private final boolean production;

  /**
   * Identities verified with {@code tokens}; {@code production} refuses guarded actions without
   * one.
   */
  public SignalIdentity(SignalTokens tokens, boolean production) {
    this.tokens = tokens;
    this.production = production;
  }

  /**
   * The identity of a signal asking for an action that moves money or closes a cause ({@code
   * ACCEPT_AS_PAID}, {@code CLOSE}, {@code MARK_FOR_REFUND}, {@code ACKNOWLEDGE}, {@code
   * REPLAY_EVENT}, {@code DISCARD_EVENT}).
   *
   * @param paymentId the payment whose workflow ({@code payment-{paymentId}}) got the signal
   * @param action the action's audited name
   * @param target the payment id for a resolution, the event id for an event operation
   * @param claimed the operator the signal names
   * @param token the signal's token, or null
   * @return the name to audit; with a refusal (for the audit row and the workflow's state) when
   *     production mode refuses the action
   */
  public Checked guarded(
      String paymentId, String action, String target, String claimed, String token) {
    SignalVerdict verdict = verify(paymentId, action, target, token);
    if (verdict.verified()) {
      return new Checked(verdict.grant().operator(), null);
    }
    String operator = unverified(claimed);
    if (!production) {
      log.warn("payment {}: {} by {} ({})", paymentId, action, operator, verdict.refusal());
      return new Checked(operator, null);
    }
    String why =
        "refused: production mode applies "
            + action
            + " only with a valid signal token, and "
            + verdict.refusal()
            + "; nothing changed. Get one from payrelay admin sign-signal --payment "
            + paymentId
            + " --action "
            + action
            + (target.equals(paymentId) ? "" : " --event " + target)
            + " and send the signal it prints";
    log.warn("payment {}: {} by {} {}", paymentId, action, operator, why);
    return new Checked(operator, why);
  }

  /**
   * The name to audit for a signal that is never refused for its identity: a safe action ({@code
   * REQUERY}, {@code EXTEND_DEADLINE}) or a request refused anyway. Arguments as {@link #guarded}.
   */
  public String audited(
      String paymentId, String action, String target, String claimed, String token) {
    SignalVerdict verdict = verify(paymentId, action, target, token);
    return verdict.verified() ? verdict.grant().operator() : unverified(claimed);
  }

  /**
   * The identity of a signal to a refund's workflow ({@code refund-{refundId}}) asking for an
   * action that moves money or settles the refund ({@code ACCEPT_AS_REFUNDED}, {@code
   * MARK_FAILED}): believed only with a valid token signed for that workflow, action and the refund
   * id as target; in production mode refused without one, as {@link #guarded}.
   *
   * @return the name to audit; with a refusal when production mode refuses the action
   */
  public Checked guardedRefund(String refundId, String action, String claimed, String token) {
    SignalVerdict verdict = verifyFor(WorkflowIds.refund(refundId), action, refundId, token);
    if (verdict.verified()) {
      return new Checked(verdict.grant().operator(), null);
    }
    String operator = unverified(claimed);
    if (!production) {
      log.warn("refund {}: {} by {} ({})", refundId, action, operator, verdict.refusal());
      return new Checked(operator, null);
    }
    String why =
        "refused: production mode applies "
            + action
            + " only with a valid signal token, and "
            + verdict.refusal()
            + "; nothing changed. Get one from payrelay admin sign-signal --refund "
            + refundId
            + " --action "
            + action
            + " and send the signal it prints, or use payrelay refund requery|accept|fail";
    log.warn("refund {}: {} by {} {}", refundId, action, operator, why);
    return new Checked(operator, why);
  }

  /**
   * The name to audit for a refund signal that is never refused for its identity ({@code REQUERY}):
   * the token's operator, or {@code unverified: <claimed>}.
   */
  public String auditedRefund(String refundId, String action, String claimed, String token) {
    SignalVerdict verdict = verifyFor(WorkflowIds.refund(refundId), action, refundId, token);
    return verdict.verified() ? verdict.grant().operator() : unverified(claimed);
  }

  private SignalVerdict verify(String paymentId, String action, String target, String token) {
    return verifyFor(WorkflowIds.payment(paymentId), action, target, token);
  }

  private SignalVerdict verifyFor(String workflowId, String action, String target, String token) {
    SignalVerdict verdict = tokens.verify(token, workflowId, action, target);
    if (verdict.verified()) {
      // The key id, not the operator's name: names may be e-mail addresses.
      log.info("{}: {} signed by API key {}", workflowId, action, verdict.grant().keyId());
    }
    return verdict;
  }

  private static String unverified(String claimed) {
    return UNVERIFIED + (claimed == null ? "" : claimed.strip());
  }

  /**
   * A guarded action's identity.
   *
   * @param operator the name to audit: the token's operator, or {@code unverified: <claimed>}
   * @param refusal why production refuses the action, or null when it may go on
   */
  public record Checked(String operator, String refusal) {}
}

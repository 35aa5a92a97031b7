package dev.payrelay.activities;

import dev.payrelay.ledger.operator.OperatorAction;
import dev.payrelay.ledger.operator.OperatorAnswer;
import dev.payrelay.ledger.refund.RefundChannelQuery;
import dev.payrelay.ledger.refund.RefundResolutions;
import dev.payrelay.ledger.refund.RefundRow;
import dev.payrelay.ledger.refund.RefundStore;
import dev.payrelay.workflows.activities.RefundResolveRequest;
import dev.payrelay.workflows.activities.RefundResolveResult;
import java.util.Optional;

/**
 * Applies a refund workflow's operator signal ({@link RefundActivitiesImpl#resolve}): checks who
 * sent it ({@link SignalIdentity#guardedRefund} for {@code ACCEPT_AS_REFUNDED} and {@code
 * MARK_FAILED}, which production refuses without a valid token; {@link
 * SignalIdentity#auditedRefund} for {@code REQUERY}), then audits and applies it through {@link
 * RefundResolutions}, once per action key; {@code MARK_FAILED} asks the refund's channel first
 * ({@link RefundResolutions#markFailed}).
 */
public final class RefundOperatorDesk {

  private final RefundResolutions resolutions;
  private final RefundStore refunds;
  private final SignalIdentity identity;
  private final RefundChannelQuery channel;

  /**
   * A desk over {@code resolutions}, reading {@code refunds}, checking {@code identity}, asking
   * {@code channel} before a {@code MARK_FAILED} ({@link MerchantRefunds} in the worker).
   */
  public RefundOperatorDesk(
      RefundResolutions resolutions,
      RefundStore refunds,
      SignalIdentity identity,
      RefundChannelQuery channel) {
    this.resolutions = resolutions;
    this.refunds = refunds;
    this.identity = identity;
    this.channel = channel;
  }

  /** See {@link dev.payrelay.workflows.activities.RefundActivities#resolve}. */
  public RefundResolveResult resolve(RefundResolveRequest r) {
    boolean guarded = !"REQUERY".equals(r.action());
    SignalIdentity.Checked who =
        guarded
            ? identity.guardedRefund(r.refundId(), r.action(), r.operator(), r.token())
            : new SignalIdentity.Checked(
                identity.auditedRefund(r.refundId(), r.action(), r.operator(), r.token()), null);
    OperatorAction asked =
        new OperatorAction(
            r.actionKey(),
            who.operator(),
            r.action(),
            RefundResolutions.TARGET,
            r.refundId(),
            r.reason());
    OperatorAnswer answer = answer(r, asked, who);
    Optional<RefundRow> after = refunds.find(r.refundId());
    return new RefundResolveResult(
        answer.actionId(),
        answer.applied(),
        answer.message(),
        after.map(row -> row.state().name()).orElse(null),
        who.operator());
  }

  private OperatorAnswer answer(
      RefundResolveRequest r, OperatorAction asked, SignalIdentity.Checked who) {
    if (r.invalidBecause() != null) {
      return resolutions.reject(asked, "invalid " + r.action() + ": " + r.invalidBecause());
    }
    if (refunds.find(r.refundId()).isEmpty()) {
      return resolutions.reject(asked, "no refund " + r.refundId());
    }
    if (who.refusal() != null) {
      return resolutions.refuse(asked, who.refusal());
    }
    return switch (r.action()) {
      case "REQUERY" -> resolutions.requery(asked);
      case "ACCEPT_AS_REFUNDED" -> resolutions.acceptAsRefunded(asked, r.evidence().strip());
      case "MARK_FAILED" -> resolutions.markFailed(asked, channel);
      default -> resolutions.reject(asked, "unknown action " + r.action());
    };
  }
}

package dev.payrelay.workflows;

import dev.payrelay.workflows.activities.ChannelStatus;
import io.temporal.workflow.Workflow;

/**
 * An operator's {@code CLOSE} closes the payment at the channel first, as expiry does, so the buyer
 * can no longer pay what we mark CLOSED. When the channel says the payment is PAID it is not
 * closed: the channel's answer goes through the ledger's confirm (a matching payment becomes PAID,
 * a disagreeing one keeps or records its exception) and the operator is told why. When the channel
 * cannot be reached nothing changes and the operator may ask again.
 */
final class OperatorClose {

  /**
   * The {@code Workflow.getVersion} change id: histories recorded before it (no marker) take the
   * old branch, which marked CLOSED without asking the channel.
   */
  static final String CHANGE_ID = "operator-close-at-channel";

  private static final int CLOSES_AT_CHANNEL = 1;

  private final ChannelWatch channel = new ChannelWatch();

  /**
   * Closes {@code paymentId} at its channel.
   *
   * @return null when the payment may now be marked CLOSED (closed at the channel, or unknown to
   *     it; or a history from before this step), else why it must not be, for the operator
   */
  String refusal(String paymentId, String channelName) {
    int version = Workflow.getVersion(CHANGE_ID, Workflow.DEFAULT_VERSION, CLOSES_AT_CHANNEL);
    if (version == Workflow.DEFAULT_VERSION) {
      return null;
    }
    ChannelStatus closed = channel.close(paymentId, channelName);
    if (closed == null) {
      return "not closed: the channel could not be reached to close the payment, so the buyer"
          + " might still pay it; nothing changed, send CLOSE again";
    }
    if (closed.ledgerStatus() != null) {
      // Not called: the ledger settled the payment meanwhile; the resolve's transition decides.
      return null;
    }
    if (!closed.paid()) {
      return null;
    }
    String outcome = channel.confirm(paymentId, closed);
    return "not closed: the channel says PAID (transaction "
        + closed.channelTxnId()
        + ", "
        + closed.amountMinor()
        + " "
        + closed.currency()
        + " in minor units); the ledger's confirm answered "
        + outcome
        + afterConfirm(outcome);
  }

  private static String afterConfirm(String outcome) {
    return switch (outcome) {
      case "CONFIRMED" -> ", so the payment is PAID and will be granted";
      case "DUPLICATE" -> ", the payment was already PAID; use MARK_FOR_REFUND to give it back";
      default ->
          "; the exception stays open: accept the money (ACCEPT_AS_PAID) or give it back"
              + " (MARK_FOR_REFUND)";
    };
  }
}

package dev.payrelay.app.runtime;

import dev.payrelay.amqp.consume.ConsumedMessage;
import dev.payrelay.amqp.consume.MessageHandler;
import dev.payrelay.amqp.consume.PoisonMessageException;
import dev.payrelay.app.config.mapping.PartialRefundGrants;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.domain.event.EventType;
import dev.payrelay.domain.event.PayloadVersions;
import dev.payrelay.domain.event.PaymentRefunded;
import dev.payrelay.ledger.payment.EntitlementRevocations;
import dev.payrelay.ledger.payment.RevocationOutcome;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.jooq.DSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code entitlements} consumer's business change (issue 28 item 4, entitlements follow the
 * money): on {@code PaymentRefunded} (payload version {@value PaymentRefunded#VERSION}) it revokes
 * the purchase's grants through {@link EntitlementRevocations}, in the inbox transaction of the
 * consumer kit, so a repeated or redelivered event, or one redelivered after a crash between commit
 * and ack, makes one revocation. A full refund ({@code full = true}) always revokes; a partial one
 * follows {@link PartialRefundGrants} ({@code PAYRELAY_REFUND_PARTIAL_GRANTS}).
 *
 * <p>Poison (quarantined at once): no event type, another payload version, a body that is not that
 * JSON, one without payment, user or refund id, a payment we do not have or whose buyer is not the
 * event's user. Another event type (its queue is bound to {@code payment.refunded} only, so it
 * arrives only by a misrouted replay) is acknowledged without effect.
 */
final class EntitlementsHandler implements MessageHandler {

  private static final Logger log = LoggerFactory.getLogger(EntitlementsHandler.class);

  private final EventJson json;
  private final PartialRefundGrants partialGrants;

  /** Revokes on every full refund, and on partial ones when {@code partialGrants} says so. */
  EntitlementsHandler(EventJson json, PartialRefundGrants partialGrants) {
    this.json = json;
    this.partialGrants = partialGrants;
  }

  @Override
  public void handle(ConsumedMessage message, DSLContext tx) {
    String type = NotificationsHandler.eventType(message);
    if (!EventType.PAYMENT_REFUNDED.wireName().equals(type)) {
      log.info(
          "entitlements: event {} is a {}, not a PaymentRefunded; nothing to revoke",
          message.eventId(),
          type);
      return;
    }
    PaymentRefunded refunded = paymentRefunded(message);
    if (refunded.otherCapture()) {
      log.info(
          "entitlements: refund {} of payment {} gave back another capture (a second charge);"
              + " the purchase's grants stand",
          refunded.refundId(),
          refunded.paymentId());
      return;
    }
    if (!refunded.full() && partialGrants == PartialRefundGrants.KEEP) {
      log.info(
          "entitlements: refund {} of payment {} is partial; its grants are kept"
              + " (PAYRELAY_REFUND_PARTIAL_GRANTS=keep)",
          refunded.refundId(),
          refunded.paymentId());
      return;
    }
    RevocationOutcome outcome;
    try {
      outcome =
          EntitlementRevocations.revoke(
              tx, refunded.paymentId(), refunded.userId(), refunded.refundId());
    } catch (IllegalArgumentException e) {
      throw new PoisonMessageException("PaymentRefunded names " + e.getMessage(), e);
    }
    // Our ids and counts only: the user id may be an e-mail.
    log.info(
        "entitlements: refund {} ({}) of payment {}: revoked {}, {} before their grant, {} already"
            + " revoked",
        refunded.refundId(),
        refunded.full() ? "full" : "partial",
        refunded.paymentId(),
        outcome.revoked().size(),
        outcome.revokedBeforeGrant().size(),
        outcome.alreadyRevoked().size());
  }

  /**
   * The body as a {@code PaymentRefunded} of this version with payment, user and refund ids.
   *
   * @throws PoisonMessageException for another payload version, a body that does not parse, or one
   *     without those ids
   */
  private PaymentRefunded paymentRefunded(ConsumedMessage message) {
    if (message.payloadVersion() != PaymentRefunded.VERSION) {
      throw new PoisonMessageException(
          PayloadVersions.unknown(
              message.eventId(),
              "PaymentRefunded",
              message.payloadVersion(),
              List.of(PaymentRefunded.VERSION)));
    }
    PaymentRefunded refunded;
    try {
      refunded =
          json.decode(new String(message.body(), StandardCharsets.UTF_8), PaymentRefunded.class);
    } catch (RuntimeException e) {
      throw new PoisonMessageException("PaymentRefunded body does not parse: " + e.getMessage(), e);
    }
    if (isBlank(refunded.paymentId())
        || isBlank(refunded.userId())
        || isBlank(refunded.refundId())) {
      throw new PoisonMessageException("PaymentRefunded without paymentId, userId or refundId");
    }
    return refunded;
  }

  private static boolean isBlank(String text) {
    return text == null || text.isBlank();
  }
}

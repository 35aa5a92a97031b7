package dev.payrelay.app.runtime;

import dev.payrelay.amqp.consume.ConsumedMessage;
import dev.payrelay.amqp.consume.MessageHandler;
import dev.payrelay.amqp.consume.PoisonMessageException;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.domain.event.EventType;
import dev.payrelay.domain.event.PayloadVersions;
import dev.payrelay.domain.event.PaymentConfirmed;
import dev.payrelay.ledger.payment.Notifications;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.jooq.DSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reference consumer's business change: on {@code PaymentConfirmed} (payload version {@value
 * PaymentConfirmed#VERSION}) it records the buyer's "your courses are unlocked" notification
 * ({@link Notifications#COURSES_UNLOCKED}), once per (user, payment, template) by the table's
 * business key, in the inbox transaction of the consumer kit.
 *
 * <p>Poison (quarantined at once): no event type (neither the AMQP {@code type} nor the {@code
 * event_type} header), another payload version, a body that is not that JSON, or one without user
 * or payment id. Another event type (its queue is bound to {@code payment.confirmed} only, so it
 * arrives only by a misrouted replay) is acknowledged without effect.
 */
final class NotificationsHandler implements MessageHandler {

  private static final Logger log = LoggerFactory.getLogger(NotificationsHandler.class);

  private final EventJson json;

  NotificationsHandler(EventJson json) {
    this.json = json;
  }

  @Override
  public void handle(ConsumedMessage message, DSLContext tx) {
    String type = eventType(message);
    if (!EventType.PAYMENT_CONFIRMED.wireName().equals(type)) {
      log.info(
          "notifications: event {} is a {}, not a PaymentConfirmed; nothing to tell",
          message.eventId(),
          type);
      return;
    }
    PaymentConfirmed confirmed = paymentConfirmed(message);
    boolean inserted =
        Notifications.record(
            tx,
            confirmed.userId(),
            confirmed.paymentId(),
            Notifications.COURSES_UNLOCKED,
            message.eventId());
    // The buyer by the payment we minted: the user id may be an e-mail.
    log.info(
        "notifications: {} the buyer of payment {} (event {})",
        inserted ? "told" : "had already told",
        confirmed.paymentId(),
        message.eventId());
  }

  /**
   * The AMQP type, else its twin header {@code event_type} (docs/consumers.md "Ordering").
   *
   * @throws PoisonMessageException when neither is there: no event at all
   */
  static String eventType(ConsumedMessage message) {
    Object header = message.headers().get("event_type");
    String type =
        message.eventType() != null
            ? message.eventType()
            : header == null ? null : header.toString();
    if (type == null) {
      throw new PoisonMessageException("no event type: neither the AMQP type nor event_type");
    }
    return type;
  }

  /**
   * The body as a {@code PaymentConfirmed} of this version with a user and a payment id.
   *
   * @throws PoisonMessageException for another payload version, a body that does not parse, or one
   *     without user or payment id
   */
  private PaymentConfirmed paymentConfirmed(ConsumedMessage message) {
    if (message.payloadVersion() != PaymentConfirmed.VERSION) {
      throw new PoisonMessageException(
          PayloadVersions.unknown(
              message.eventId(),
              "PaymentConfirmed",
              message.payloadVersion(),
              List.of(PaymentConfirmed.VERSION)));
    }
    PaymentConfirmed confirmed;
    try {
      confirmed =
          json.decode(new String(message.body(), StandardCharsets.UTF_8), PaymentConfirmed.class);
    } catch (RuntimeException e) {
      throw new PoisonMessageException(
          "PaymentConfirmed body does not parse: " + e.getMessage(), e);
    }
    if (isBlank(confirmed.userId()) || isBlank(confirmed.paymentId())) {
      throw new PoisonMessageException("PaymentConfirmed without userId or paymentId");
    }
    return confirmed;
  }

  private static boolean isBlank(String text) {
    return text == null || text.isBlank();
  }
}

package dev.payrelay.domain.event;

/**
 * The business facts payrelay announces, each with its wire name (the {@code event_type} column and
 * AMQP {@code type} property) and its routing key on the {@code payrelay.events} topic exchange.
 */
public enum EventType {
  /** A payment attempt was created and is waiting for the channel. */
  PAYMENT_CREATED("PaymentCreated", "payment.created"),
  /** The channel's verified word that the payment is PAID was applied to our ledger. */
  PAYMENT_CONFIRMED("PaymentConfirmed", "payment.confirmed"),
  /**
   * A verified callback disagreed with our records; the payment needs an operator. Repeatable: one
   * per recorded exception.
   */
  PAYMENT_EXCEPTION_RECORDED("PaymentExceptionRecorded", "payment.exception_recorded"),
  /** The payment was closed: it will not be paid (for now only by an operator's decision). */
  PAYMENT_CLOSED("PaymentClosed", "payment.closed"),
  /** A refund of the payment was recorded REQUESTED and is to be sent to the channel. */
  REFUND_REQUESTED("RefundRequested", "payment.refund_requested"),
  /** The channel refunded a refund of the payment; the ledger holds it SUCCEEDED. */
  PAYMENT_REFUNDED("PaymentRefunded", "payment.refunded");

  private final String wireName;
  private final String routingKey;

  EventType(String wireName, String routingKey) {
    this.wireName = wireName;
    this.routingKey = routingKey;
  }

  /** The stored and published name, e.g. {@code PaymentConfirmed}. */
  public String wireName() {
    return wireName;
  }

  /** The topic routing key, e.g. {@code payment.confirmed}. */
  public String routingKey() {
    return routingKey;
  }

  /**
   * Looks up a type by its wire name.
   *
   * @throws IllegalArgumentException for a name payrelay does not know
   */
  public static EventType fromWireName(String wireName) {
    for (EventType type : values()) {
      if (type.wireName.equals(wireName)) {
        return type;
      }
    }
    throw new IllegalArgumentException("unknown event type: " + wireName);
  }
}

package dev.payrelay.domain.channel;

/** A payment's state as a channel reports it, in a callback or a query answer. */
public enum ChannelPaymentStatus {
  /** The channel knows the payment; money has not moved. */
  PENDING,
  /** Money moved: the channel's word that the payment is paid. */
  PAID,
  /** Closed at the channel; it can no longer be paid. */
  CLOSED,
  /** The channel has no record of the payment. */
  NOT_FOUND,
  /** Paid, then the money went back to the buyer, in whole or in part (a refund). */
  REFUNDED,
  /** Paid, then the buyer contested it with the card issuer or channel (a dispute, chargeback). */
  DISPUTED,
  /**
   * A status the adapter does not know (e.g. one the channel added after this adapter was written):
   * recorded and acknowledged so the channel stops retrying, never believed.
   */
  UNKNOWN
}

package dev.payrelay.workflows;

/**
 * What {@link EventDelivery} tells the story of the workflow it runs in (a payment's {@link
 * PaymentStory}, a refund's {@link RefundStory}): an event published, an event DEAD (an {@link
 * Attention} cause), and what a retry waits for.
 */
interface DeliveryStory {

  /** Event {@code eventId} was published (SENT). */
  void published(String eventId);

  /** Opens {@code cause} with {@code error} (e.g. {@link Attention#dead}). */
  void needsAttention(String cause, String error);

  /** What the run waits for now, in words; null for nothing. */
  void waitingFor(String what);
}

package dev.payrelay.ledger.checks;

/**
 * What {@code payrelay check} found wrong with a payment or a consumer: each kind is a broken rule
 * of DESIGN.md or something stuck until a person acts, named for the operator. The database checks
 * ({@link PaymentChecks}) find the first nine and the four refund kinds at the end; the worker
 * finds the other five: {@link #CALLBACK_NOT_DECIDED} by reading a stored callback with its
 * channel's adapter, the next three from the payments' workflows (Temporal visibility), {@link
 * #QUARANTINED_MESSAGE} from the consumers' quarantine queues (RabbitMQ).
 */
public enum FindingKind {
  /**
   * PAID without its {@code PaymentConfirmed} outbox event (invariant 3: they commit together), so
   * consumers were never told. Looked for only among payments paid within the SENT retention (older
   * events may have been purged).
   */
  PAID_WITHOUT_CONFIRMED_EVENT,
  /** An outbox event still PENDING or DISPATCHED, written longer ago than the age. */
  EVENT_NOT_SENT,
  /** An outbox event DEAD longer ago than the age: only an operator's replay or discard ends it. */
  EVENT_DEAD,
  /** PAID longer ago than the age with a purchased course not granted to the buyer. */
  PAID_WITHOUT_ENTITLEMENT,
  /**
   * An entitlement on a PAID purchase that is not one the purchase owes: a course it did not buy,
   * or another user than the buyer (a duplicate effect; the grant key allows one per user).
   */
  ENTITLEMENT_NOT_PURCHASED,
  /**
   * An open {@code DOUBLE_PAYMENT} exception: the channel took this payment's money a second time
   * with another transaction, and nobody has decided on the refund yet.
   */
  PAID_TWICE,
  /**
   * An OPEN {@code payment_exception} of any other kind (AMOUNT_MISMATCH, PAID_AFTER_CLOSE, a
   * reconciliation's REVIEW, ...) recorded longer ago than the age: only an operator's {@code
   * payrelay resolve} closes it. The reason names the kind and the amount expected vs reported.
   */
  OPEN_EXCEPTION,
  /** PENDING, CLOSED or EXPIRED, yet entitlements were granted on it. */
  ENTITLED_NOT_PAID,
  /**
   * Still PENDING though its {@code expires_at} passed longer ago than the age: the expiry sweep
   * and the payment's channel watch should have closed or confirmed it (looked at within the
   * window, by {@code expires_at}).
   */
  PENDING_PAST_DEADLINE,
  /**
   * A callback stored in {@code webhook_inbox} longer ago than the age and never decided (outcome
   * still RECEIVED: the process stopped, or lost the database, between storing and deciding it, so
   * the channel got no answer), whose payment is not decided either: still PENDING, unknown, or not
   * readable from the stored bytes. Once its payment is decided (the channel's retry, or the
   * payment's channel watch asking the channel) the row is no longer a finding.
   */
  CALLBACK_NOT_DECIDED,
  /** PAID longer ago than the age, and Temporal has no workflow {@code payment-{paymentId}}. */
  PAID_WITHOUT_WORKFLOW,
  /**
   * PAID longer ago than the age, and the payment's latest workflow run shows a {@code
   * PaymentState} that contradicts it: AWAITING_PAYMENT, CLOSED or EXPIRED.
   */
  WORKFLOW_STATE_MISMATCH,
  /**
   * The payment's running workflow shows its channel queries failing in a row ({@code
   * PaymentAttention = "channel-query"}): no callback came and the channel does not answer, so
   * whether the buyer paid is unknown. Listed whatever its age.
   */
  CHANNEL_QUERIES_FAILING,
  /**
   * A message in a consumer's quarantine queue, whatever its age: the consumer gave up on it
   * (POISON, EXHAUSTED, CONFLICT, NO_MESSAGE_ID, DELIVERY_LIMIT) and only an operator's replay or
   * discard takes it out. Not tied to a payment: the finding names the consumer and entry id.
   */
  QUARANTINED_MESSAGE,
  /**
   * The payment's SUCCEEDED refunds add up to more than its captured amount (minor units): the sum
   * must never exceed the capture (issue 28 item 7). Any age.
   */
  REFUNDED_MORE_THAN_CAPTURED,
  /**
   * A refund SUCCEEDED without its {@code PaymentRefunded} outbox event (they commit together in
   * one transaction), so consumers were never told and no grant was revoked. Any age.
   */
  REFUND_WITHOUT_EVENT,
  /**
   * A purchase REFUNDED in full longer ago than the age whose entitlements are not revoked ({@code
   * entitlement.revoked_at} NULL): the buyer kept what the money bought.
   */
  REFUNDED_WITH_LIVE_GRANTS,
  /**
   * A refund UNKNOWN or SUBMITTED, unchanged for longer than the age: whether the channel refunded
   * the money is not known, and only a query by our refund number may tell.
   */
  REFUND_UNKNOWN_TOO_LONG
}

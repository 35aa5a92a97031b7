package dev.payrelay.amqp.consume;

import org.jooq.DSLContext;

/**
 * A consumer's business change, run by {@link InboxConsumer} inside the inbox transaction.
 *
 * <p>Everything it writes must go through {@code tx}: the change then commits with the inbox row or
 * not at all. It must not ack, publish or call out on its own (a side effect outside the
 * transaction happens again on a redelivery).
 */
@FunctionalInterface
public interface MessageHandler {

  /**
   * Applies {@code message} in the transaction {@code tx}.
   *
   * @throws PoisonMessageException when the message can never be handled (unknown payload version,
   *     invalid content): it is quarantined at once
   * @throws RuntimeException for anything else, e.g. a deadlock or a lost connection: it is retried
   *     after the next retry delay, then quarantined when the delays are used up
   */
  void handle(ConsumedMessage message, DSLContext tx);
}

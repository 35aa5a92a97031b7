package dev.payrelay.amqp.consume;

import java.util.List;

/**
 * What {@link ConsumerQuarantine#list} saw in one consumer's quarantine queue.
 *
 * @param consumer the consumer's name
 * @param queue the quarantine queue's name
 * @param depth messages ready in the queue when the listing began ({@code queue.declare-ok}'s
 *     message count; messages another client holds unacknowledged are not counted)
 * @param messages the first messages, oldest first, at most the limit asked
 */
public record QuarantinePeek(
    String consumer, String queue, long depth, List<QuarantinedMessage> messages) {

  /** Copies the list. */
  public QuarantinePeek {
    messages = List.copyOf(messages);
  }
}

package dev.payrelay.amqp.consume;

/**
 * The broker has no queue for the named consumer: a passive {@code queue.declare} of its quarantine
 * or work queue was answered 404 NOT_FOUND (AMQP 0-9-1 reply code 404). Either the name is wrong or
 * that consumer never ran against this broker ({@link ConsumerTopology} declares the queues).
 */
public final class UnknownConsumerException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** The consumer and the queue the broker does not know. */
  public UnknownConsumerException(String consumer, String queue) {
    super("no consumer " + consumer + " on this broker: queue " + queue + " does not exist");
  }
}

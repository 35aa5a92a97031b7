package dev.payrelay.amqp;

import java.util.Map;
import java.util.Objects;

/**
 * A durable queue payrelay owns and the topic pattern that binds it to the events exchange.
 *
 * @param queue queue name
 * @param routingKeyPattern topic binding key, e.g. {@code payment.#} ({@code *} one word, {@code #}
 *     zero or more, per the RabbitMQ topic exchange docs)
 * @param arguments optional queue arguments ({@code x-max-length}, {@code x-overflow}, {@code
 *     x-dead-letter-exchange}, ...); copied; they must match on every declaration or the broker
 *     refuses it with 406 PRECONDITION_FAILED
 */
public record QueueBinding(String queue, String routingKeyPattern, Map<String, Object> arguments) {

  /** Validates and copies the arguments. */
  public QueueBinding {
    Objects.requireNonNull(queue, "queue");
    Objects.requireNonNull(routingKeyPattern, "routingKeyPattern");
    if (queue.isBlank()) {
      throw new IllegalArgumentException("queue must not be blank");
    }
    arguments = Map.copyOf(Objects.requireNonNull(arguments, "arguments"));
  }

  /** A binding without queue arguments. */
  public QueueBinding(String queue, String routingKeyPattern) {
    this(queue, routingKeyPattern, Map.of());
  }
}

package dev.payrelay.amqp.publish;

import dev.payrelay.domain.failure.PublishFailure;
import java.util.Objects;

/**
 * A publish that did not end in a broker ack for a routed message. {@link #failure()} says why and
 * whether a retry can help ({@link PublishFailure#retryable()}); the publish activity turns it into
 * an {@code ApplicationFailure} of that type.
 */
public final class PublishException extends Exception {

  private static final long serialVersionUID = 1L;

  private final PublishFailure failure;

  /** A failure without an underlying exception (return, nack). */
  public PublishException(PublishFailure failure, String message) {
    this(failure, message, null);
  }

  /** A failure caused by {@code cause} (I/O, shutdown, timeout). */
  public PublishException(PublishFailure failure, String message, Throwable cause) {
    super(failure + ": " + message, cause);
    this.failure = Objects.requireNonNull(failure, "failure");
  }

  /** Why the publish failed. */
  public PublishFailure failure() {
    return failure;
  }
}

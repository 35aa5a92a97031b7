package dev.payrelay.amqp.consume;

/**
 * Thrown by a {@link MessageHandler} for a message no retry can fix (an unknown payload version,
 * content that does not parse or breaks a rule): {@link InboxConsumer} quarantines it at once with
 * {@link QuarantineReason#POISON} and this message in its headers.
 */
public final class PoisonMessageException extends RuntimeException {

  /** A poison message, with why. */
  public PoisonMessageException(String message) {
    super(message);
  }

  /** A poison message, with why and the parse or validation error. */
  public PoisonMessageException(String message, Throwable cause) {
    super(message, cause);
  }
}

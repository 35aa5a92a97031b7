package dev.payrelay.domain.channel;

/** A call to a channel failed. Its effect is unknown: a failed query never means "not paid". */
public final class ChannelException extends Exception {

  private final boolean retryable;

  /**
   * @param message what failed, for logs and activity failures
   * @param retryable true for timeouts, connection errors and 5xx; false for a refusal that will
   *     not change on retry (4xx)
   */
  public ChannelException(String message, boolean retryable, Throwable cause) {
    super(message, cause);
    this.retryable = retryable;
  }

  /** Whether retrying the same call can help. */
  public boolean retryable() {
    return retryable;
  }
}

package dev.payrelay.api;

/**
 * A dependency payrelay needs for this request (e.g. Temporal's visibility store) cannot answer;
 * HTTP 503 with this message, which says what is missing.
 */
public final class ServiceUnavailableException extends RuntimeException {

  /** What cannot answer and why, and the error behind it. */
  public ServiceUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}

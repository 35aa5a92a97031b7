package dev.payrelay.api;

/** A request payrelay refuses with HTTP 400 and this message. */
public final class BadRequestException extends RuntimeException {

  /** A refusal explaining what is wrong with the request. */
  public BadRequestException(String message) {
    super(message);
  }
}

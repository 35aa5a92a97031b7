package dev.payrelay.api;

/** The named resource does not exist (HTTP 404). */
public final class NotFoundException extends RuntimeException {

  /** A not-found with a message naming what is missing. */
  public NotFoundException(String message) {
    super(message);
  }
}

package dev.payrelay.api;

/** The request cannot apply to the resource in its current state (HTTP 409). */
public final class ConflictException extends RuntimeException {

  /** A conflict explaining the current state. */
  public ConflictException(String message) {
    super(message);
  }
}

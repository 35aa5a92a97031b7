package dev.payrelay.channels.sandbox;

/** A simulator request refused with an HTTP status and a message for the JSON error body. */
final class SimulatorException extends RuntimeException {

  private final int httpStatus;

  SimulatorException(int httpStatus, String message) {
    super(message);
    this.httpStatus = httpStatus;
  }

  int httpStatus() {
    return httpStatus;
  }
}

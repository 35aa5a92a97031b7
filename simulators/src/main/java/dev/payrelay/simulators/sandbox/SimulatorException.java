package dev.payrelay.simulators.sandbox;

/** A simulator request refused with an HTTP status and a message for the JSON error body. */
public final class SimulatorException extends RuntimeException {

  private final int httpStatus;

  public SimulatorException(int httpStatus, String message) {
    super(message);
    this.httpStatus = httpStatus;
  }

  public int httpStatus() {
    return httpStatus;
  }
}

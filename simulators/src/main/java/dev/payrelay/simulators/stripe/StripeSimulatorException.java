package dev.payrelay.simulators.stripe;

/**
 * A refusal the simulator answers in Stripe's error shape: HTTP status and {@code {"error":
 * {"type", "code", "message"}}} (https://docs.stripe.com/api/errors).
 */
final class StripeSimulatorException extends RuntimeException {

  private final int httpStatus;
  private final String type;
  private final String code;

  StripeSimulatorException(int httpStatus, String type, String code, String message) {
    super(message);
    this.httpStatus = httpStatus;
    this.type = type;
    this.code = code;
  }

  /** A 400/404 {@code invalid_request_error} with Stripe's error code. */
  static StripeSimulatorException invalid(int httpStatus, String code, String message) {
    return new StripeSimulatorException(httpStatus, "invalid_request_error", code, message);
  }

  int httpStatus() {
    return httpStatus;
  }

  String type() {
    return type;
  }

  String code() {
    return code;
  }
}

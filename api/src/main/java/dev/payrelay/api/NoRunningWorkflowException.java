package dev.payrelay.api;

/** The payment has no running workflow to signal (HTTP 409). */
public final class NoRunningWorkflowException extends RuntimeException {

  /** The payment and the cause from Temporal. */
  public NoRunningWorkflowException(String paymentId, Throwable cause) {
    super("payment " + paymentId + " has no running workflow to signal", cause);
  }
}

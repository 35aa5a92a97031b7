package dev.payrelay.temporal.client;

/**
 * Temporal could not answer a listing: its frontend is unreachable, or it does not support
 * visibility queries (the in-memory Java test server answers UNIMPLEMENTED), or it refused the
 * query (e.g. the namespace lacks payrelay's search attributes). The message says which.
 */
public final class PaymentListingUnavailableException extends RuntimeException {

  /** The reason, in words an operator can act on, and the gRPC error behind it. */
  public PaymentListingUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}

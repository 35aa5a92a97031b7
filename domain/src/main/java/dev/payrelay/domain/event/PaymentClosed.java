package dev.payrelay.domain.event;

/**
 * Payload of a {@code PaymentClosed} event, version 1.
 *
 * @param paymentId the payment
 * @param tenantId its tenant
 * @param orderId its order
 * @param source who closed it: {@code OPERATOR} (later also {@code EXPIRY})
 * @param reason why, as recorded
 */
public record PaymentClosed(
    String paymentId, String tenantId, String orderId, String source, String reason) {

  /** Payload schema version written with this record. */
  public static final int VERSION = 1;
}

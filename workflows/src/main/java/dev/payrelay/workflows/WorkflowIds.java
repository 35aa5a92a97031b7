package dev.payrelay.workflows;

/**
 * Workflow id formats: the business key is the workflow id, so start and signal are idempotent (one
 * workflow tells one payment's story). The only place they are spelled.
 */
public final class WorkflowIds {

  private static final String PAYMENT_PREFIX = "payment-";

  private WorkflowIds() {}

  /** {@code payment-{paymentId}}: the id of the payment's {@link PaymentWorkflow}. */
  public static String payment(String paymentId) {
    return PAYMENT_PREFIX + paymentId;
  }
}

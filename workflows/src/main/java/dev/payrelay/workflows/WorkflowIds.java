package dev.payrelay.workflows;

import java.time.LocalDate;

/**
 * Workflow id formats: the business key is the workflow id, so start and signal are idempotent (one
 * workflow tells one payment's story). The only place they are spelled.
 */
public final class WorkflowIds {

  private static final String PAYMENT_PREFIX = "payment-";
  private static final String REFUND_PREFIX = "refund-";
  private static final String RECONCILIATION_PREFIX = "recon-";
  private static final String DAILY_RECONCILIATION_PREFIX = "recon-daily-";

  private WorkflowIds() {}

  /** {@code payment-{paymentId}}: the id of the payment's {@link PaymentWorkflow}. */
  public static String payment(String paymentId) {
    return PAYMENT_PREFIX + paymentId;
  }

  /**
   * The payment id in a {@link #payment} workflow id.
   *
   * @return the payment id, or empty for any other workflow id
   */
  public static java.util.Optional<String> paymentIdOf(String workflowId) {
    return workflowId != null
            && workflowId.startsWith(PAYMENT_PREFIX)
            && workflowId.length() > PAYMENT_PREFIX.length()
        ? java.util.Optional.of(workflowId.substring(PAYMENT_PREFIX.length()))
        : java.util.Optional.empty();
  }

  /** {@code refund-{refundId}}: the id of the refund's {@link RefundWorkflow}. */
  public static String refund(String refundId) {
    return REFUND_PREFIX + refundId;
  }

  /**
   * The refund id in a {@link #refund} workflow id.
   *
   * @return the refund id, or empty for any other workflow id
   */
  public static java.util.Optional<String> refundIdOf(String workflowId) {
    return workflowId != null
            && workflowId.startsWith(REFUND_PREFIX)
            && workflowId.length() > REFUND_PREFIX.length()
        ? java.util.Optional.of(workflowId.substring(REFUND_PREFIX.length()))
        : java.util.Optional.empty();
  }

  /**
   * {@code recon-{channel}-{date}}, date as ISO-8601 ({@code recon-sandbox-2026-03-11}): the id of
   * the day's {@link ReconciliationWorkflow}.
   */
  public static String reconciliation(String channel, LocalDate date) {
    return RECONCILIATION_PREFIX + channel + "-" + date;
  }

  /**
   * {@code recon-daily-{channel}} ({@code recon-daily-sandbox}): the id of the channel's daily
   * reconciliation Schedule, and the prefix of the {@link DailyReconciliationWorkflow} ids it
   * starts (the Schedule appends each action's time).
   */
  public static String dailyReconciliation(String channel) {
    return DAILY_RECONCILIATION_PREFIX + channel;
  }
}

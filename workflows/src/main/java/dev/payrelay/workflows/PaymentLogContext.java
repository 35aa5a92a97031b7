package dev.payrelay.workflows;

import java.util.ArrayList;
import java.util.List;
import org.slf4j.MDC;

/**
 * The ids of the payment a thread is handling, in the SLF4J MDC for as long as it handles it: every
 * log line written meanwhile carries them (as fields of the JSON line with {@code
 * PAYRELAY_LOG_FORMAT=json}). Keys: {@value #PAYMENT_ID}, {@value #WORKFLOW_ID} (the payment's
 * workflow, {@link WorkflowIds#payment}) and {@value #EVENT_ID} (an outbox event's id, once known).
 *
 * <p>Opened in a try-with-resources block around the handling of one payment or event (webhook,
 * dispatcher hand-off, activity); {@link #close()} removes exactly the keys it put, so a pooled
 * thread never carries them into its next task. Not for workflow code, whose threads the SDK
 * manages (it puts {@code WorkflowId} there itself). Not thread-safe: one thread opens and closes.
 */
public final class PaymentLogContext implements AutoCloseable {

  /** MDC key of the payment id, e.g. {@code pay_1f3...}. */
  public static final String PAYMENT_ID = "paymentId";

  /** MDC key of the payment workflow's id, {@code payment-{paymentId}}. */
  public static final String WORKFLOW_ID = "workflowId";

  /** MDC key of the outbox event id (a UUID, the AMQP message id). */
  public static final String EVENT_ID = "eventId";

  private final List<String> keys = new ArrayList<>();

  private PaymentLogContext() {}

  /**
   * Puts {@code paymentId}, its workflow id and {@code eventId} in the MDC.
   *
   * @param paymentId the payment; null puts neither it nor a workflow id (e.g. an activity whose
   *     payment the surrounding context already names)
   * @param eventId the outbox event; null puts none
   */
  public static PaymentLogContext of(String paymentId, String eventId) {
    PaymentLogContext context = new PaymentLogContext();
    if (paymentId != null) {
      context.put(PAYMENT_ID, paymentId);
      context.put(WORKFLOW_ID, WorkflowIds.payment(paymentId));
    }
    return context.withEvent(eventId);
  }

  /** Adds the outbox event's id (null adds nothing); returns this context. */
  public PaymentLogContext withEvent(String eventId) {
    if (eventId != null) {
      put(EVENT_ID, eventId);
    }
    return this;
  }

  private void put(String key, String value) {
    MDC.put(key, value);
    keys.add(key);
  }

  /** Removes the keys this context put. */
  @Override
  public void close() {
    keys.forEach(MDC::remove);
    keys.clear();
  }
}

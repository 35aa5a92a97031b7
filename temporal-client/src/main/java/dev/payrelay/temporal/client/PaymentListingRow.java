package dev.payrelay.temporal.client;

import dev.payrelay.workflows.PaymentWorkflowState;
import java.time.Instant;

/**
 * One payment workflow as Temporal's visibility store lists it (search attributes as last upserted;
 * visibility is eventually consistent, typically behind by well under a second).
 *
 * @param workflowId {@code payment-{paymentId}}
 * @param paymentId the {@code PaymentId} search attribute
 * @param orderId the {@code OrderId} search attribute
 * @param tenantId the {@code TenantId} search attribute
 * @param channel the {@code Channel} search attribute
 * @param paymentState the {@code PaymentState} search attribute, a {@link PaymentWorkflowState}
 *     name (null if the workflow never set it)
 * @param executionStatus the run's status without its prefix: RUNNING, COMPLETED, FAILED, CANCELED,
 *     TERMINATED, CONTINUED_AS_NEW or TIMED_OUT
 * @param startTime when the run started (UTC)
 * @param closeTime when the run closed (UTC), null while it runs
 * @param attention the {@code PaymentAttention} search attribute, why it waits where no event of
 *     its own says so (e.g. {@code channel-query}); null when unset
 */
public record PaymentListingRow(
    String workflowId,
    String paymentId,
    String orderId,
    String tenantId,
    String channel,
    String paymentState,
    String executionStatus,
    Instant startTime,
    Instant closeTime,
    String attention) {}

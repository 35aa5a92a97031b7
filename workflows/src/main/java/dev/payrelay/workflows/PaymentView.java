package dev.payrelay.workflows;

import java.util.List;

/**
 * Answer of the {@code state} query: the payment's story so far.
 *
 * @param paymentId our payment id
 * @param state the current state
 * @param publishedEventIds event ids published and marked SENT, in order
 * @param pendingEventIds event ids received and not yet published, in order
 * @param grantedCourseIds courses granted by this workflow (new or already present)
 * @param lastError the last failure or open exception the workflow saw, or null
 * @param resolutions operator resolutions handled, as "ACTION by operator: result"
 */
public record PaymentView(
    String paymentId,
    PaymentWorkflowState state,
    List<String> publishedEventIds,
    List<String> pendingEventIds,
    List<String> grantedCourseIds,
    String lastError,
    List<String> resolutions) {}

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
 * @param causes each open reason the payment needs an operator, oldest first, as {@code "why — fix:
 *     what to send"}; empty unless the state is NEEDS_ATTENTION
 * @param waitingFor what the run waits for now, in words (the channel's answer and when it asks
 *     next, a publish retry, a grant round, an operator), or null once nothing is awaited
 * @param details the same as the Temporal UI's "current details" of the run (Markdown): state,
 *     causes with their fixes, what it waits for
 */
public record PaymentView(
    String paymentId,
    PaymentWorkflowState state,
    List<String> publishedEventIds,
    List<String> pendingEventIds,
    List<String> grantedCourseIds,
    String lastError,
    List<String> resolutions,
    List<String> causes,
    String waitingFor,
    String details) {}

package dev.payrelay.workflows;

import java.util.List;

/**
 * The refund workflow's {@code state} query: the same fields its current details show, as data.
 *
 * @param refundId our refund id
 * @param paymentId the refunded payment
 * @param state what the run shows (also the {@code RefundState} search attribute)
 * @param ledgerState the ledger's refund state as last read or written
 * @param submissions how many times it was sent to the channel (0, 1 or 2)
 * @param queries channel queries this refund's runs made (carried across continue-as-new)
 * @param failedQueries of those, how many failed (state stayed unknown)
 * @param unsettledSince when the runs first saw it unsettled, ISO-8601, or null
 * @param nextQueryAt when the next query is due, ISO-8601, or null when none is scheduled
 * @param lastError the last error or channel word that left it unknown, or null
 * @param attention why an operator is needed, or null
 * @param publishedEventIds the refund's outbox events this run published
 * @param pendingEventIds its events still to publish
 * @param operatorLog each operator signal's outcome
 * @param waitingFor what the run waits for, in words, or null
 * @param details the current details shown in the Temporal UI (Markdown)
 */
public record RefundView(
    String refundId,
    String paymentId,
    RefundWorkflowState state,
    String ledgerState,
    int submissions,
    int queries,
    int failedQueries,
    String unsettledSince,
    String nextQueryAt,
    String lastError,
    String attention,
    List<String> publishedEventIds,
    List<String> pendingEventIds,
    List<String> operatorLog,
    String waitingFor,
    String details) {}

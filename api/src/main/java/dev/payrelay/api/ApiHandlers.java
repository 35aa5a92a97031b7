package dev.payrelay.api;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.function.BooleanSupplier;

/**
 * What the HTTP API serves.
 *
 * @param payments payment creation
 * @param queries payment trails
 * @param webhooks channel callbacks
 * @param admin operator fixes
 * @param reconciliations on-demand reconciliation and its summaries
 * @param listing payments by workflow state, through Temporal's visibility store
 * @param metrics the registry {@code /metrics} scrapes
 * @param databaseUp whether the database answers, for {@code /health}
 * @param webhookBodyLimit the largest callback body accepted, in bytes; longer ones are recorded
 *     (their first bytes) and refused with 413
 * @param keys the API keys accepted on the payment and admin endpoints
 * @param codec the Temporal UI's codec endpoint, {@code /v1/codec/...}
 * @param quarantine the consumers' quarantine queues, {@code /v1/admin/consumers/...}; null leaves
 *     those routes out (404), for tests without a broker
 */
public record ApiHandlers(
    PaymentService payments,
    PaymentQueries queries,
    WebhookService webhooks,
    AdminService admin,
    ReconciliationAdmin reconciliations,
    PaymentListingAdmin listing,
    PrometheusMeterRegistry metrics,
    BooleanSupplier databaseUp,
    int webhookBodyLimit,
    ApiKeys keys,
    CodecEndpoint codec,
    QuarantineAdmin quarantine) {}

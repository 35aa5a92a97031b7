package dev.payrelay.api.http;

import dev.payrelay.api.admin.AdminService;
import dev.payrelay.api.admin.PaymentListingAdmin;
import dev.payrelay.api.admin.QuarantineAdmin;
import dev.payrelay.api.admin.ReconciliationAdmin;
import dev.payrelay.api.admin.RefundFixes;
import dev.payrelay.api.auth.ApiKeys;
import dev.payrelay.api.health.Readiness;
import dev.payrelay.api.payment.PaymentQueries;
import dev.payrelay.api.payment.PaymentService;
import dev.payrelay.api.refund.RefundService;
import dev.payrelay.api.webhook.WebhookService;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

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
 * @param readiness what {@code /health/ready} reports: the checks of what this process needs (the
 *     server closes it)
 * @param webhookBodyLimit the largest callback body accepted, in bytes; longer ones are recorded
 *     (their first bytes) and refused with 413
 * @param keys the API keys accepted on the payment and admin endpoints
 * @param codec the Temporal UI's codec endpoint, {@code /v1/codec/...}
 * @param quarantine the consumers' quarantine queues, {@code /v1/admin/consumers/...}; null leaves
 *     those routes out (404), for tests without a broker
 * @param refunds refund requests and reads, {@code /v1/payments/{id}/refunds} and {@code
 *     /v1/refunds/{refundId}}; null leaves those routes out
 * @param refundFixes an operator's fixes of a stuck refund, {@code
 *     /v1/admin/refunds/{refundId}/...}; null leaves those routes out
 */
public record ApiHandlers(
    PaymentService payments,
    PaymentQueries queries,
    WebhookService webhooks,
    AdminService admin,
    ReconciliationAdmin reconciliations,
    PaymentListingAdmin listing,
    PrometheusMeterRegistry metrics,
    Readiness readiness,
    int webhookBodyLimit,
    ApiKeys keys,
    CodecEndpoint codec,
    QuarantineAdmin quarantine,
    RefundService refunds,
    RefundFixes refundFixes) {}

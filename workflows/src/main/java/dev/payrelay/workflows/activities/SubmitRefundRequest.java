package dev.payrelay.workflows.activities;

/**
 * One submission of a refund to its channel ({@link RefundActivities#submit}).
 *
 * @param refundId our refund id
 * @param attempt 1 for the first submission; 2 for the one resubmission, with the same refund
 *     number, that a NOT_FOUND query answer allows
 */
public record SubmitRefundRequest(String refundId, int attempt) {}

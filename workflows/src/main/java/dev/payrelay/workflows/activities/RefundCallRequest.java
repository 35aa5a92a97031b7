package dev.payrelay.workflows.activities;

/**
 * Names the refund an activity of {@link RefundActivities} reads or asks its channel about.
 *
 * @param refundId our refund id ({@code rfd_...})
 */
public record RefundCallRequest(String refundId) {}

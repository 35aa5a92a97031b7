package dev.payrelay.workflows.activities;

/**
 * Argument of {@link ResolutionActivities#reject}: an invalid request, kept as it was asked.
 *
 * @param paymentId the payment
 * @param operator who asked, possibly blank
 * @param reason the reason given, possibly blank
 * @param action the action asked, possibly unknown
 * @param why why it is rejected
 */
public record RejectResolutionRequest(
    String paymentId, String operator, String reason, String action, String why) {}

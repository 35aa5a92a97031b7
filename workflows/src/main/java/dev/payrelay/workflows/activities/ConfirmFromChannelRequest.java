package dev.payrelay.workflows.activities;

/**
 * Argument of {@link LedgerActivities#confirmFromChannel}.
 *
 * @param paymentId the payment
 * @param channelTxnId the channel's paying transaction
 * @param amountMinor the channel's amount in ISO 4217 minor units
 * @param currency the channel's currency
 * @param source {@code QUERY} (a status query or the close at expiry)
 */
public record ConfirmFromChannelRequest(
    String paymentId, String channelTxnId, long amountMinor, String currency, String source) {}

package dev.payrelay.workflows.activities;

/**
 * A payment's state as the channel answered.
 *
 * @param status {@code PENDING}, {@code PAID}, {@code CLOSED} or {@code NOT_FOUND}
 * @param channelTxnId the paying transaction when PAID, else null
 * @param amountMinor the channel's amount in ISO 4217 minor units, or null when not found
 * @param currency the channel's currency, or null when not found
 */
public record ChannelStatus(String status, String channelTxnId, Long amountMinor, String currency) {

  /** Whether the channel says money moved. */
  public boolean paid() {
    return "PAID".equals(status);
  }
}

package dev.payrelay.workflows.activities;

/**
 * A payment's state as the channel answered.
 *
 * @param status {@code PENDING}, {@code PAID}, {@code CLOSED} or {@code NOT_FOUND}
 * @param channelTxnId the paying transaction when PAID, else null
 * @param amountMinor the channel's amount in ISO 4217 minor units, or null when not found
 * @param currency the channel's currency, or null when not found
 * @param ledgerStatus when not null, the channel was NOT called: our ledger already holds the
 *     payment {@code PAID}, {@code CLOSED} or {@code EXPIRED}, and the other fields are null (null
 *     in histories recorded before this field)
 */
public record ChannelStatus(
    String status, String channelTxnId, Long amountMinor, String currency, String ledgerStatus) {

  /** The channel's answer (the channel was called). */
  public ChannelStatus(String status, String channelTxnId, Long amountMinor, String currency) {
    this(status, channelTxnId, amountMinor, currency, null);
  }

  /** No call made: the ledger already settled the payment as {@code ledgerStatus}. */
  public static ChannelStatus settledInLedger(String ledgerStatus) {
    return new ChannelStatus(null, null, null, null, ledgerStatus);
  }

  /** Whether the channel says money moved. */
  public boolean paid() {
    return "PAID".equals(status);
  }
}

package dev.payrelay.app.config.mapping;

/**
 * {@code PAYRELAY_REFUND_PARTIAL_GRANTS}: what a partial refund does to the purchase's grants (a
 * full refund always revokes them all). payrelay's {@code entitlements} consumer applies it to each
 * {@code PaymentRefunded} with {@code full = false}; the setting in force when that event is
 * handled decides, and changing it later revisits no refund.
 */
public enum PartialRefundGrants {
  /** The buyer keeps every course: a partial refund is a discount, not a return. */
  KEEP,
  /** The buyer loses every course of the purchase, as after a full refund. */
  REVOKE_ALL
}

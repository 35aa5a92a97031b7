package dev.payrelay.channels.sandbox;

/**
 * A notification the sandbox signs and posts to a merchant's notify_url: a payment's ({@link
 * SandboxNotification}) or a refund's ({@link SandboxRefundNotification}). Retries post the same
 * bytes under the same notification id.
 */
public interface SandboxMessage {

  /** The channel's id of this notification, the same on every retry. */
  String notificationId();

  /** The merchant account whose secret signs it. */
  String merchantId();

  /** Our payment id, echoed. */
  String paymentId();

  /** The exact UTF-8 JSON bytes to sign with {@link SandboxSignature#sign} and send unchanged. */
  byte[] toJson();
}

package dev.payrelay.ledger.refund;

import dev.payrelay.domain.IdCharacters;
import dev.payrelay.ledger.refund.RefundRefused.Reason;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A validated refund request and its request hash: SHA-256 (hex) over the payment id, amount and
 * reason, each length-prefixed so no two bodies share a hash input. Bounds are the {@code refund}
 * columns' widths (V13), so no valid request fails in the database.
 */
record RefundAsk(
    String tenantId,
    String paymentId,
    long amountMinor,
    String reason,
    String idempotencyKey,
    String requestHash) {

  private static final int MAX_ID = 64;
  private static final int MAX_REASON = 500;
  private static final int MAX_KEY = 128;

  /**
   * Validates the fields.
   *
   * @throws RefundRefused INVALID naming the first bad field
   */
  static RefundAsk of(
      String tenantId, String paymentId, long amountMinor, String reason, String idempotencyKey) {
    requireText(tenantId, "tenantId", MAX_ID);
    check(paymentId, amountMinor, reason, idempotencyKey);
    return new RefundAsk(
        tenantId,
        paymentId,
        amountMinor,
        reason,
        idempotencyKey,
        hash(paymentId, amountMinor, reason));
  }

  /**
   * Validates the fields a caller gives (all but the tenant, which the API key decides).
   *
   * @throws RefundRefused INVALID naming the first bad field
   */
  static void check(String paymentId, long amountMinor, String reason, String idempotencyKey) {
    requireText(paymentId, "paymentId", MAX_ID);
    if (amountMinor <= 0) {
      throw new RefundRefused(Reason.INVALID, "amountMinor must be a positive integer");
    }
    requireText(reason, "reason", MAX_REASON);
    requireText(idempotencyKey, "Idempotency-Key", MAX_KEY);
    String refused = IdCharacters.firstRefused(idempotencyKey);
    if (refused != null) {
      throw new RefundRefused(Reason.INVALID, "Idempotency-Key must not contain " + refused);
    }
  }

  /** Refuses a null, blank or longer than {@code max} value, naming it. */
  static void requireText(String value, String name, int max) {
    if (value == null || value.isBlank() || value.length() > max) {
      throw new RefundRefused(
          Reason.INVALID, name + " is required, at most " + max + " characters");
    }
  }

  private static String hash(String paymentId, long amountMinor, String reason) {
    String canonical =
        paymentId.length()
            + ":"
            + paymentId
            + "|"
            + amountMinor
            + "|"
            + reason.length()
            + ":"
            + reason;
    return sha256(canonical);
  }

  /** SHA-256 over {@code text}'s UTF-8 bytes, as 64 lower-case hex digits. */
  static String sha256(String text) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JVM", e);
    }
  }
}

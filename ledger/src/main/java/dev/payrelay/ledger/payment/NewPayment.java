package dev.payrelay.ledger.payment;

import dev.payrelay.domain.Money;
import java.time.Duration;
import java.util.List;

/**
 * A payment attempt to create.
 *
 * @param tenantId the owning tenant
 * @param orderId the merchant's order id
 * @param userId the buyer
 * @param channel the channel name
 * @param merchantId our merchant account at the channel
 * @param amount the amount due, in minor units
 * @param courseIds what it buys; at least one, no duplicates
 * @param idempotencyKey the client's {@code Idempotency-Key}, or null
 * @param requestHash a digest of the request's content, compared when the key is reused
 * @param timeToLive how long the attempt stays payable, from the database's now
 */
public record NewPayment(
    String tenantId,
    String orderId,
    String userId,
    String channel,
    String merchantId,
    Money amount,
    List<String> courseIds,
    String idempotencyKey,
    String requestHash,
    Duration timeToLive) {

  /** Copies the list. */
  public NewPayment {
    courseIds = List.copyOf(courseIds);
  }
}

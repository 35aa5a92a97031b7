package dev.payrelay.api.payment;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payrelay.api.ApiInput;
import dev.payrelay.api.BadRequestException;
import dev.payrelay.api.ChannelUnavailableException;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.ChannelAccount;
import dev.payrelay.domain.channel.ChannelException;
import dev.payrelay.domain.channel.ChannelPaymentRequest;
import dev.payrelay.domain.channel.ChannelRegistration;
import dev.payrelay.domain.channel.ChannelRegistry;
import dev.payrelay.domain.channel.PaymentChannel;
import dev.payrelay.ledger.payment.CreatedPayment;
import dev.payrelay.ledger.payment.NewPayment;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Creates payment attempts: stores the PENDING payment with its {@code PaymentCreated} outbox event
 * in one transaction, then registers it with its channel. Each payment is created with its tenant's
 * merchant account at the channel ({@link ChannelRegistry#forTenant}), whose merchant id it
 * records.
 */
public final class PaymentService {

  private final ObjectMapper canonical = new ObjectMapper();
  private final PaymentStore payments;
  private final ChannelRegistry channels;
  private final Duration timeToLive;
  private final Runnable outboxCommitted;

  /**
   * A service over {@code payments}.
   *
   * @param timeToLive how long a new attempt stays payable
   * @param outboxCommitted called after a payment and its outbox event committed
   */
  public PaymentService(
      PaymentStore payments,
      ChannelRegistry channels,
      Duration timeToLive,
      Runnable outboxCommitted) {
    this.payments = payments;
    this.channels = channels;
    this.timeToLive = timeToLive;
    this.outboxCommitted = outboxCommitted;
  }

  /**
   * Creates (or, for a reused idempotency key with the same body, returns) a payment and registers
   * it with its channel. Registration is idempotent at the channel, so a retry re-registers safely.
   *
   * @throws BadRequestException for invalid fields
   * @throws dev.payrelay.ledger.db.IdempotencyConflictException for a reused key with another body
   * @throws ChannelUnavailableException if the channel could not register the stored payment
   */
  public CreatedPaymentView create(CreatePaymentRequest request, String idempotencyKey) {
    NewPayment p = validate(request, idempotencyKey);
    CreatedPayment created = payments.create(p);
    if (created.created()) {
      outboxCommitted.run();
    }
    PaymentRow row = created.payment();
    // A payment found by its idempotency key keeps the account it was created with.
    PaymentChannel channel =
        channels
            .forMerchant(row.channel(), row.merchantId())
            .map(ChannelAccount::adapter)
            .or(() -> channels.find(row.channel()))
            .orElseThrow();
    try {
      ChannelRegistration registration =
          channel.register(
              new ChannelPaymentRequest(
                  row.paymentId(),
                  row.merchantId(),
                  row.amount(),
                  "order " + row.orderId(),
                  row.expiresAt()));
      return new CreatedPaymentView(row, registration.payUrl(), created.created());
    } catch (ChannelException e) {
      throw new ChannelUnavailableException(row.paymentId(), e);
    }
  }

  private NewPayment validate(CreatePaymentRequest r, String idempotencyKey) {
    requireFields(r, idempotencyKey);
    Money amount = amount(r);
    return new NewPayment(
        r.tenantId(),
        r.orderId(),
        r.userId(),
        r.channel(),
        channels.forTenant(r.channel(), r.tenantId()).orElseThrow().merchantId(),
        amount,
        List.copyOf(r.courseIds()),
        idempotencyKey,
        requestHash(r),
        timeToLive);
  }

  /** Every field but the amount's: present, within its column's width, a known channel. */
  private void requireFields(CreatePaymentRequest r, String idempotencyKey) {
    ApiInput.require(r != null, "a JSON body is required");
    // Bounds are the columns' widths (V1 migration), so no valid request fails in the database.
    ApiInput.requireId(r.tenantId(), "tenantId", 64);
    ApiInput.requireId(r.orderId(), "orderId", 128);
    ApiInput.requireId(r.userId(), "userId", 128);
    ApiInput.requireId(r.channel(), "channel", 32);
    ApiInput.require(channels.find(r.channel()).isPresent(), "unknown channel: " + r.channel());
    ApiInput.require(
        r.amountMinor() != null && r.amountMinor() > 0, "amountMinor must be a positive integer");
    ApiInput.require(
        r.courseIds() != null && !r.courseIds().isEmpty(), "courseIds must not be empty");
    r.courseIds().forEach(c -> ApiInput.requireId(c, "courseIds[]", 128));
    ApiInput.require(
        new LinkedHashSet<>(r.courseIds()).size() == r.courseIds().size(),
        "courseIds must be unique");
    if (idempotencyKey != null) {
      ApiInput.requireId(idempotencyKey, "Idempotency-Key", 128);
    }
  }

  /** The amount in its currency's minor units, at most the payment ceiling ({@link Money}). */
  private static Money amount(CreatePaymentRequest r) {
    Money amount;
    try {
      amount = Money.ofMinor(r.amountMinor(), r.currency());
    } catch (IllegalArgumentException e) {
      throw new BadRequestException(e.getMessage());
    }
    ApiInput.require(
        !amount.exceedsPaymentCeiling(),
        "amountMinor must be at most "
            + Money.maxPaymentMinorUnits(amount.currency())
            + " for "
            + amount.currencyCode()
            + " ("
            + Money.MAX_PAYMENT_MAJOR_UNITS
            + " major units)");
    return amount;
  }

  /**
   * SHA-256 over the request's canonical JSON (record fields in declaration order, strings escaped
   * by Jackson), so a reused Idempotency-Key with any other body is caught.
   */
  String requestHash(CreatePaymentRequest r) {
    try {
      byte[] json = canonical.writeValueAsBytes(r);
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(json));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot encode " + r, e);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JVM", e);
    }
  }
}

package dev.payrelay.api;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.ChannelException;
import dev.payrelay.domain.channel.ChannelPaymentRequest;
import dev.payrelay.domain.channel.ChannelRegistration;
import dev.payrelay.domain.channel.PaymentChannel;
import dev.payrelay.sql.CreatedPayment;
import dev.payrelay.sql.NewPayment;
import dev.payrelay.sql.PaymentRow;
import dev.payrelay.sql.PaymentStore;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Creates payment attempts: stores the PENDING payment with its {@code PaymentCreated} outbox event
 * in one transaction, then registers it with its channel.
 */
public final class PaymentService {

  private final PaymentStore payments;
  private final ChannelRegistry channels;
  private final String merchantId;
  private final Duration timeToLive;
  private final Runnable outboxCommitted;

  /**
   * A service over {@code payments}.
   *
   * @param merchantId our merchant account at the channels
   * @param timeToLive how long a new attempt stays payable
   * @param outboxCommitted called after a payment and its outbox event committed
   */
  public PaymentService(
      PaymentStore payments,
      ChannelRegistry channels,
      String merchantId,
      Duration timeToLive,
      Runnable outboxCommitted) {
    this.payments = payments;
    this.channels = channels;
    this.merchantId = merchantId;
    this.timeToLive = timeToLive;
    this.outboxCommitted = outboxCommitted;
  }

  /**
   * Creates (or, for a reused idempotency key with the same body, returns) a payment and registers
   * it with its channel. Registration is idempotent at the channel, so a retry re-registers safely.
   *
   * @throws BadRequestException for invalid fields
   * @throws dev.payrelay.sql.IdempotencyConflictException for a reused key with another body
   * @throws ChannelUnavailableException if the channel could not register the stored payment
   */
  public CreatedPaymentView create(CreatePaymentRequest request, String idempotencyKey) {
    NewPayment p = validate(request, idempotencyKey);
    PaymentChannel channel = channels.find(p.channel()).orElseThrow();
    CreatedPayment created = payments.create(p);
    if (created.created()) {
      outboxCommitted.run();
    }
    PaymentRow row = created.payment();
    try {
      ChannelRegistration registration =
          channel.register(
              new ChannelPaymentRequest(
                  row.paymentId(),
                  row.merchantId(),
                  row.amount(),
                  "order " + row.orderId(),
                  row.expiresAt().toInstant(ZoneOffset.UTC)));
      return new CreatedPaymentView(row, registration.payUrl(), created.created());
    } catch (ChannelException e) {
      throw new ChannelUnavailableException(row.paymentId(), e);
    }
  }

  private NewPayment validate(CreatePaymentRequest r, String idempotencyKey) {
    require(r != null, "a JSON body is required");
    requireText(r.tenantId(), "tenantId");
    requireText(r.orderId(), "orderId");
    requireText(r.userId(), "userId");
    requireText(r.channel(), "channel");
    require(channels.find(r.channel()).isPresent(), "unknown channel: " + r.channel());
    require(
        r.amountMinor() != null && r.amountMinor() > 0, "amountMinor must be a positive integer");
    require(r.courseIds() != null && !r.courseIds().isEmpty(), "courseIds must not be empty");
    r.courseIds().forEach(c -> requireText(c, "courseIds[]"));
    require(
        new LinkedHashSet<>(r.courseIds()).size() == r.courseIds().size(),
        "courseIds must be unique");
    require(
        idempotencyKey == null || idempotencyKey.length() <= 128,
        "Idempotency-Key is longer than 128");
    Money amount;
    try {
      amount = Money.ofMinor(r.amountMinor(), r.currency());
    } catch (IllegalArgumentException e) {
      throw new BadRequestException(e.getMessage());
    }
    return new NewPayment(
        r.tenantId(),
        r.orderId(),
        r.userId(),
        r.channel(),
        merchantId,
        amount,
        List.copyOf(r.courseIds()),
        idempotencyKey,
        requestHash(r),
        timeToLive);
  }

  private static void requireText(String value, String field) {
    require(
        value != null && !value.isBlank() && value.length() <= 128,
        field + " must be 1..128 characters");
  }

  private static void require(boolean condition, String message) {
    if (!condition) {
      throw new BadRequestException(message);
    }
  }

  /** SHA-256 over the request's fields, so a reused Idempotency-Key with another body is caught. */
  static String requestHash(CreatePaymentRequest r) {
    String canonical =
        String.join(
            "\u001f",
            r.tenantId(),
            r.orderId(),
            r.userId(),
            String.valueOf(r.amountMinor()),
            r.currency(),
            String.join("\u001e", r.courseIds()),
            r.channel());
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JVM", e);
    }
  }
}

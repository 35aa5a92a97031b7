package dev.payrelay.simulators.sandbox;

import dev.payrelay.channels.sandbox.SandboxNotification;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The simulator's in-memory payments. Every transition is one atomic {@link
 * ConcurrentHashMap#compute}, so concurrent register/pay/close calls on a payment serialise. A
 * refused transition throws {@link SimulatorException} and leaves the payment unchanged.
 */
public final class SimulatedPayments {

  /** A registration's result: the stored payment and whether this call created it. */
  public record Registration(SimulatedPayment payment, boolean created) {}

  /** Test overrides of what the channel reports as paid; null fields keep the registered value. */
  public record PayOverride(String amount, String currency) {
    public static final PayOverride NONE = new PayOverride(null, null);
  }

  private final ConcurrentHashMap<String, SimulatedPayment> payments = new ConcurrentHashMap<>();
  private final Clock clock;

  public SimulatedPayments(Clock clock) {
    this.clock = clock;
  }

  /**
   * Registers a payment, idempotently per payment id: the same amount and currency again returns
   * the stored payment (first notify_url and description win); another amount or currency is 409.
   */
  public Registration register(SimulatedPayment candidate) {
    AtomicBoolean created = new AtomicBoolean();
    SimulatedPayment stored =
        payments.compute(
            candidate.paymentId(),
            (id, existing) -> {
              if (existing == null) {
                created.set(true);
                return candidate;
              }
              if (!existing.amount().equals(candidate.amount())) {
                throw new SimulatorException(
                    409, "payment " + id + " is already registered for " + existing.amount());
              }
              return existing;
            });
    return new Registration(stored, created.get());
  }

  /** The payment, turned CLOSED first if it is PENDING past its expiry (as channels close it). */
  public Optional<SimulatedPayment> find(String paymentId) {
    return Optional.ofNullable(
        payments.computeIfPresent(
            paymentId, (id, p) -> p.expiredAt(clock.instant()) ? p.closed() : p));
  }

  /**
   * The buyer pays: PENDING becomes PAID with a new transaction and notification; an already PAID
   * payment is returned unchanged (so its notification is re-sent).
   *
   * @throws SimulatorException 404 unknown, 409 closed or expired, 400 for a bad override
   */
  public SimulatedPayment pay(String paymentId, PayOverride override) {
    return payments.compute(
        paymentId,
        (id, p) -> {
          if (p == null) {
            throw new SimulatorException(404, "no payment " + id);
          }
          if (p.status() == ChannelPaymentStatus.PAID) {
            return p;
          }
          if (p.status() == ChannelPaymentStatus.CLOSED || p.expiredAt(clock.instant())) {
            throw new SimulatorException(409, "payment " + id + " is closed or expired");
          }
          return p.paid(notification(p, reported(p, override)));
        });
  }

  /**
   * Closes a payment so it can no longer be paid. Closing a CLOSED one is a no-op; a PAID one is
   * returned unchanged (the money has moved, so the caller must confirm rather than close).
   *
   * @throws SimulatorException 404 unknown
   */
  public SimulatedPayment close(String paymentId) {
    return payments.compute(
        paymentId,
        (id, p) -> {
          if (p == null) {
            throw new SimulatorException(404, "no payment " + id);
          }
          return p.status() == ChannelPaymentStatus.PAID ? p : p.closed();
        });
  }

  /** A snapshot of every payment, in no particular order. */
  List<SimulatedPayment> all() {
    return List.copyOf(payments.values());
  }

  private static Money reported(SimulatedPayment p, PayOverride override) {
    String amount = override.amount() != null ? override.amount() : p.amount().toDecimalString();
    String currency = override.currency() != null ? override.currency() : p.amount().currencyCode();
    try {
      return Money.parse(amount, currency);
    } catch (IllegalArgumentException e) {
      throw new SimulatorException(400, "bad override: " + e.getMessage());
    }
  }

  private SandboxNotification notification(SimulatedPayment p, Money reported) {
    return new SandboxNotification(
        "ntf_" + randomHex(),
        p.merchantId(),
        p.paymentId(),
        "sbx_" + randomHex(),
        reported.toDecimalString(),
        reported.currencyCode(),
        ChannelPaymentStatus.PAID.name(),
        clock.instant());
  }

  private static String randomHex() {
    return UUID.randomUUID().toString().replace("-", "");
  }
}

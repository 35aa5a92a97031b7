package dev.payrelay.simulators.sandbox;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.ChannelRefundStatus;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The simulator's in-memory refunds, at most one per (payment, refund number). Every method is
 * synchronized, so two submits of one number make one refund and two concurrent refunds cannot
 * together exceed what was paid. A refused refund throws {@link SimulatorException} and is not
 * kept.
 */
public final class SimulatedRefunds {

  /** The status of a refund refused on its merits (payment not PAID, more than is left). */
  static final int UNPROCESSABLE = 422;

  /** A submit's result: the stored refund and whether this call made it. */
  public record Submission(SimulatedRefund refund, boolean created) {}

  private final SimulatedPayments payments;
  private final Clock clock;
  private final Map<String, List<SimulatedRefund>> byPayment = new HashMap<>();

  public SimulatedRefunds(SimulatedPayments payments, Clock clock) {
    this.payments = payments;
    this.clock = clock;
  }

  /**
   * Refunds part or all of a PAID payment, once per refund number: the same number with the same
   * amount answers the stored refund.
   *
   * @param refundNo the merchant's number, or null for a dashboard refund (always a new one)
   * @param fail whether the sandbox fails the new refund (it is kept, FAILED, and frees its amount)
   * @throws SimulatorException 404 unknown payment; 409 the number already names another amount;
   *     422 the payment is not PAID, the currency differs, or the amount exceeds what is left
   */
  public synchronized Submission submit(
      String paymentId, String refundNo, Money amount, String reason, boolean fail) {
    SimulatedPayment payment =
        payments
            .find(paymentId)
            .orElseThrow(() -> new SimulatorException(404, "no payment " + paymentId));
    Optional<SimulatedRefund> same =
        refundNo == null ? Optional.empty() : find(paymentId, refundNo);
    if (same.isPresent()) {
      if (!same.get().amount().equals(amount)) {
        throw new SimulatorException(
            409, "refund " + refundNo + " is already for " + same.get().amount());
      }
      return new Submission(same.get(), false);
    }
    check(payment, amount);
    SimulatedRefund refund =
        new SimulatedRefund(
            "sbr_" + UUID.randomUUID().toString().replace("-", ""),
            refundNo,
            paymentId,
            payment.merchantId(),
            payment.channelTxnId(),
            amount,
            reason,
            fail ? ChannelRefundStatus.FAILED : ChannelRefundStatus.SUCCEEDED,
            fail ? "simulated refund failure" : null,
            clock.instant());
    byPayment.computeIfAbsent(paymentId, id -> new ArrayList<>()).add(refund);
    return new Submission(refund, true);
  }

  /** The payment's refund with our number, if the sandbox holds one. */
  public synchronized Optional<SimulatedRefund> find(String paymentId, String refundNo) {
    return byPayment.getOrDefault(paymentId, List.of()).stream()
        .filter(r -> refundNo.equals(r.refundNo()))
        .findFirst();
  }

  /** The payment's refunds, oldest first. */
  public synchronized List<SimulatedRefund> of(String paymentId) {
    return List.copyOf(byPayment.getOrDefault(paymentId, List.of()));
  }

  /** Every refund, in no particular order. */
  synchronized List<SimulatedRefund> all() {
    return byPayment.values().stream().flatMap(List::stream).toList();
  }

  private void check(SimulatedPayment payment, Money amount) {
    String id = payment.paymentId();
    if (payment.status() != ChannelPaymentStatus.PAID) {
      throw new SimulatorException(UNPROCESSABLE, "payment " + id + " is " + payment.status());
    }
    Money paid = payment.reportedAmount();
    if (!paid.currencyCode().equals(amount.currencyCode())) {
      throw new SimulatorException(UNPROCESSABLE, "payment " + id + " was paid in " + paid);
    }
    long refunded =
        byPayment.getOrDefault(id, List.of()).stream()
            .filter(r -> r.status() != ChannelRefundStatus.FAILED)
            .mapToLong(r -> r.amount().minorUnits())
            .sum();
    if (amount.minorUnits() <= 0 || refunded + amount.minorUnits() > paid.minorUnits()) {
      throw new SimulatorException(
          UNPROCESSABLE,
          "refund of "
              + amount
              + " exceeds what is left of "
              + paid
              + " ("
              + refunded
              + " minor units refunded)");
    }
  }
}

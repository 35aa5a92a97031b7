package dev.payrelay.simulators.wechatpay;

import dev.payrelay.simulators.SimulatorIds;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A snapshot of one Native order at the simulator. Its transitions are WeChat Pay's: NOTPAY →
 * SUCCESS (the buyer paid) → REFUND (after a first refund), or NOTPAY → CLOSED; each returns the
 * order after it, and {@link SimulatedOrders} applies it atomically per order.
 *
 * @param terms what the merchant's prepay placed it with
 * @param createdAt when it was placed
 * @param state the {@code trade_state}
 * @param transactionId the {@code transaction_id} once paid, else null
 * @param successTime when it was paid, else null
 * @param refunds its refunds, oldest first
 */
record SimulatedOrder(
    Terms terms,
    Instant createdAt,
    String state,
    String transactionId,
    Instant successTime,
    List<Refund> refunds) {

  /** The {@code openid} of the one buyer who pays every order. */
  static final String PAYER_OPENID = "oUpF8uMuAJO_M2pxb1Q9zNjWeS6o";

  /** Copies the refunds. */
  SimulatedOrder {
    refunds = List.copyOf(refunds);
  }

  /**
   * What the merchant's prepay ("Native下单") placed an order with.
   *
   * @param total the order amount in minor units of {@code currency}
   * @param codeUrl the {@code code_url} the buyer scans, chosen by the simulator
   * @param expireAt the order's {@code time_expire}
   */
  record Terms(
      String outTradeNo,
      String description,
      long total,
      String currency,
      String notifyUrl,
      String codeUrl,
      Instant expireAt) {}

  /**
   * One refund of the order.
   *
   * @param refundId WeChat Pay's {@code refund_id}
   * @param outRefundNo the merchant's {@code out_refund_no}
   * @param fen the refunded amount in fen (CNY minor units)
   * @param at when it was made
   * @param status its {@code status}: SUCCESS, or ABNORMAL when WeChat Pay failed it (no money
   *     moved)
   */
  record Refund(String refundId, String outRefundNo, long fen, Instant at, String status) {

    /** Whether the money went back. */
    boolean succeeded() {
      return "SUCCESS".equals(status);
    }
  }

  /** A new order: NOTPAY. */
  static SimulatedOrder placed(Terms terms, Instant createdAt) {
    return new SimulatedOrder(terms, createdAt, "NOTPAY", null, null, List.of());
  }

  /**
   * The buyer pays now by {@code clock}: SUCCESS with a new {@code transaction_id}.
   *
   * @throws IllegalStateException if the order is not NOTPAY or its {@code time_expire} passed
   */
  SimulatedOrder paid(Clock clock) {
    if (!"NOTPAY".equals(state)) {
      throw new IllegalStateException("ORDERPAID/ORDER_CLOSED: order is " + state);
    }
    if (!clock.instant().isBefore(terms.expireAt())) {
      throw new IllegalStateException("ORDER_CLOSED: time_expire passed");
    }
    String transaction =
        "4200"
            + String.format(
                "%024d", ThreadLocalRandom.current().nextLong(1_000_000_000_000_000_000L));
    return new SimulatedOrder(terms, createdAt, "SUCCESS", transaction, clock.instant(), refunds);
  }

  /**
   * Refunds {@code fen} of the paid order at {@code now}: REFUND, the refund last of {@link
   * #refunds}; a failed one (status ABNORMAL) is kept last too but moves nothing, and leaves the
   * order's state.
   *
   * @param status SUCCESS or ABNORMAL
   * @throws IllegalStateException if the order is not paid or the amount exceeds what is left
   */
  SimulatedOrder refunded(String outRefundNo, long fen, Instant now, String status) {
    if (!isPaid()) {
      throw new IllegalStateException("INVALID_REQUEST: order is " + state);
    }
    long refunded = refunds.stream().filter(Refund::succeeded).mapToLong(Refund::fen).sum();
    if (fen <= 0 || refunded + fen > terms.total()) {
      throw new IllegalStateException("INVALID_REQUEST: refund exceeds what is left of the order");
    }
    List<Refund> after = new ArrayList<>(refunds);
    // refund_id: 29 digits, as 50000000382019052709732678859 in the 申请退款 API sample.
    after.add(new Refund("50" + SimulatorIds.digits(27), outRefundNo, fen, now, status));
    String next = "SUCCESS".equals(status) ? "REFUND" : state;
    return new SimulatedOrder(terms, createdAt, next, transactionId, successTime, after);
  }

  /** The refund under {@code outRefundNo}, if the order has one. */
  Optional<Refund> refund(String outRefundNo) {
    return refunds.stream().filter(r -> r.outRefundNo().equals(outRefundNo)).findFirst();
  }

  /** Whether the buyer paid it (SUCCESS, or REFUND after). */
  boolean isPaid() {
    return "SUCCESS".equals(state) || "REFUND".equals(state);
  }

  /** The merchant closes the unpaid order: CLOSED (again if it was). */
  SimulatedOrder closed() {
    return new SimulatedOrder(terms, createdAt, "CLOSED", transactionId, successTime, refunds);
  }
}

package dev.payrelay.simulators.wechatpay;

import dev.payrelay.simulators.SimulatorIds;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One Native order as the simulator holds it, with WeChat Pay's transitions: NOTPAY → SUCCESS (the
 * buyer paid) → REFUND (after a first refund), or NOTPAY → CLOSED. Each change and each {@link
 * #snapshot} holds the order's lock, so a reader never sees half a change.
 */
final class SimulatedOrder {

  /** The {@code openid} of the one buyer who pays every order. */
  static final String PAYER_OPENID = "oUpF8uMuAJO_M2pxb1Q9zNjWeS6o";

  /**
   * One refund of the order.
   *
   * @param refundId WeChat Pay's {@code refund_id}
   * @param outRefundNo the merchant's {@code out_refund_no}
   * @param fen the refunded amount in fen (CNY minor units)
   * @param at when it was made
   */
  record Refund(String refundId, String outRefundNo, long fen, Instant at) {}

  /**
   * The order as it stands.
   *
   * @param total the order amount in minor units of {@code currency}
   * @param state the {@code trade_state}
   * @param transactionId the {@code transaction_id} once paid, else null
   * @param successTime when it was paid, else null
   * @param refunds its refunds, oldest first
   */
  record Snapshot(
      String outTradeNo,
      String description,
      long total,
      String currency,
      String state,
      String transactionId,
      Instant successTime,
      List<Refund> refunds) {}

  final String outTradeNo;
  final String description;
  final long total;
  final String currency;
  final String notifyUrl;
  final String codeUrl;
  final Instant createdAt;
  final Instant expireAt;
  private final List<Refund> refunds = new ArrayList<>();
  private String state = "NOTPAY";
  private String transactionId;
  private Instant successTime;
  private long refunded;

  SimulatedOrder(
      String outTradeNo,
      String description,
      long total,
      String currency,
      String notifyUrl,
      String codeUrl,
      Instant createdAt,
      Instant expireAt) {
    this.outTradeNo = outTradeNo;
    this.description = description;
    this.total = total;
    this.currency = currency;
    this.notifyUrl = notifyUrl;
    this.codeUrl = codeUrl;
    this.createdAt = createdAt;
    this.expireAt = expireAt;
  }

  synchronized Snapshot snapshot() {
    return new Snapshot(
        outTradeNo,
        description,
        total,
        currency,
        state,
        transactionId,
        successTime,
        List.copyOf(refunds));
  }

  synchronized String state() {
    return state;
  }

  /**
   * The buyer pays now by {@code clock}: SUCCESS with a new {@code transaction_id}.
   *
   * @throws IllegalStateException if the order is not NOTPAY or its {@code time_expire} passed
   */
  synchronized void pay(Clock clock) {
    if (!"NOTPAY".equals(state)) {
      throw new IllegalStateException("ORDERPAID/ORDER_CLOSED: order is " + state);
    }
    if (!clock.instant().isBefore(expireAt)) {
      throw new IllegalStateException("ORDER_CLOSED: time_expire passed");
    }
    state = "SUCCESS";
    transactionId =
        "4200"
            + String.format(
                "%024d", ThreadLocalRandom.current().nextLong(1_000_000_000_000_000_000L));
    successTime = clock.instant();
  }

  /**
   * Refunds {@code fen} of the paid order at {@code now}: REFUND.
   *
   * @return the refund made
   * @throws IllegalStateException if the order is not paid or the amount exceeds what is left
   */
  synchronized Refund refund(String outRefundNo, long fen, Instant now) {
    if (!"SUCCESS".equals(state) && !"REFUND".equals(state)) {
      throw new IllegalStateException("TRADE_STATE_ERROR: order is " + state);
    }
    if (fen <= 0 || refunded + fen > total) {
      throw new IllegalStateException("NOT_ENOUGH: refund exceeds the order");
    }
    state = "REFUND";
    refunded += fen;
    // refund_id: 29 digits, as 50000000382019052709732678859 in the 申请退款 API sample.
    Refund refund = new Refund("50" + SimulatorIds.digits(27), outRefundNo, fen, now);
    refunds.add(refund);
    return refund;
  }

  /**
   * The merchant closes the order: CLOSED (again if it was).
   *
   * @return false, and nothing changed, when the order is paid (SUCCESS or REFUND)
   */
  synchronized boolean close() {
    if ("SUCCESS".equals(state) || "REFUND".equals(state)) {
      return false;
    }
    state = "CLOSED";
    return true;
  }
}

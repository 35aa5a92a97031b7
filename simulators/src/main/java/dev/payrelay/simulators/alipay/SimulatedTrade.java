package dev.payrelay.simulators.alipay;

import dev.payrelay.domain.Money;
import java.time.Instant;
import java.util.List;

/**
 * A snapshot of one order at the simulator.
 *
 * @param outTradeNo the merchant's order id (payrelay's payment id)
 * @param tradeNo Alipay's trade number, assigned when the buyer scans; null before
 * @param amount {@code total_amount}, CNY
 * @param subject the order title
 * @param notifyUrl where notifications go
 * @param state {@link State}
 * @param timeExpire after this instant an unpaid trade is closed
 * @param createdAt {@code gmt_create}: when the buyer scanned, or null
 * @param paidAt {@code gmt_payment}, or null
 * @param closedAt {@code gmt_close}, or null
 * @param refunds refunds so far, oldest first
 */
public record SimulatedTrade(
    String outTradeNo,
    String tradeNo,
    Money amount,
    String subject,
    String notifyUrl,
    State state,
    Instant timeExpire,
    Instant createdAt,
    Instant paidAt,
    Instant closedAt,
    List<Refund> refunds) {

  /** Copies the refunds. */
  public SimulatedTrade {
    refunds = List.copyOf(refunds);
  }

  /** An order's life at Alipay; the last three are {@code trade_status} values. */
  public enum State {
    /** Precreated, QR code not scanned: no trade yet (queries answer ACQ.TRADE_NOT_EXIST). */
    PRECREATED,
    /** Scanned: {@code WAIT_BUYER_PAY}. */
    WAIT_BUYER_PAY,
    /** Paid: {@code TRADE_SUCCESS}. */
    TRADE_SUCCESS,
    /** Closed unpaid, or fully refunded: {@code TRADE_CLOSED}. */
    TRADE_CLOSED
  }

  /**
   * One refund.
   *
   * @param outRequestNo the merchant's refund request number
   * @param amount the refunded amount
   * @param at {@code gmt_refund}
   */
  public record Refund(String outRequestNo, Money amount, Instant at) {}

  /** The sum refunded so far, in minor units. */
  public long refundedMinor() {
    return refunds.stream().mapToLong(r -> r.amount().minorUnits()).sum();
  }

  SimulatedTrade with(
      State newState,
      String newTradeNo,
      Instant created,
      Instant paid,
      Instant closed,
      List<Refund> newRefunds) {
    return new SimulatedTrade(
        outTradeNo,
        newTradeNo,
        amount,
        subject,
        notifyUrl,
        newState,
        timeExpire,
        created,
        paid,
        closed,
        newRefunds);
  }
}

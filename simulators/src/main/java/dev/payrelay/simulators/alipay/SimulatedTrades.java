package dev.payrelay.simulators.alipay;

import dev.payrelay.channels.alipay.AlipayTrades;
import dev.payrelay.domain.Money;
import dev.payrelay.simulators.SimulatorIds;
import dev.payrelay.simulators.alipay.SimulatedTrade.Refund;
import dev.payrelay.simulators.alipay.SimulatedTrade.State;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

/**
 * The simulator's orders in memory, with Alipay's transitions: precreate → scan (WAIT_BUYER_PAY) →
 * pay (TRADE_SUCCESS) → refunds (TRADE_CLOSED once fully refunded); an unpaid trade past its {@code
 * time_expire}, or closed by the merchant, is TRADE_CLOSED. Each operation is atomic per order.
 */
final class SimulatedTrades {

  /** Failure of an operation, carrying Alipay's {@code sub_code}. */
  static final class Refused extends Exception {
    final String subCode;

    Refused(String subCode, String message) {
      super(message);
      this.subCode = subCode;
    }
  }

  private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("yyyyMMdd");

  private final Map<String, SimulatedTrade> trades = new ConcurrentHashMap<>();
  private final Clock clock;

  SimulatedTrades(Clock clock) {
    this.clock = clock;
  }

  /** The order, with an elapsed {@code time_expire} applied. */
  Optional<SimulatedTrade> find(String outTradeNo) {
    return Optional.ofNullable(trades.computeIfPresent(outTradeNo, (id, t) -> expired(t)));
  }

  List<SimulatedTrade> all() {
    return trades.keySet().stream().map(this::find).flatMap(Optional::stream).toList();
  }

  SimulatedTrade precreate(SimulatedTrade order) throws Refused {
    SimulatedTrade stored = trades.putIfAbsent(order.outTradeNo(), order);
    if (stored == null) {
      return order;
    }
    if (!stored.amount().equals(order.amount())) {
      throw new Refused("ACQ.CONTEXT_INCONSISTENT", "交易信息被篡改 (other amount for this order)");
    }
    if (expired(stored).state() == State.TRADE_SUCCESS) {
      throw new Refused("ACQ.TRADE_HAS_SUCCESS", "交易已被支付");
    }
    return stored;
  }

  SimulatedTrade scan(String outTradeNo) throws Refused {
    SimulatedTrade current = find(outTradeNo).orElseThrow(SimulatedTrades::notExist);
    if (current.state() == State.PRECREATED && !now().isBefore(current.timeExpire())) {
      throw new Refused("ACQ.TRADE_HAS_CLOSE", "二维码已过期 (time_expire passed)");
    }
    return update(
        outTradeNo,
        t -> {
          if (t.state() == State.PRECREATED) {
            return t.with(State.WAIT_BUYER_PAY, newTradeNo(), now(), null, null, List.of());
          }
          return t;
        });
  }

  SimulatedTrade pay(String outTradeNo) throws Refused {
    SimulatedTrade scanned = scan(outTradeNo);
    if (scanned.state() == State.TRADE_CLOSED) {
      throw new Refused("ACQ.TRADE_HAS_CLOSE", "交易已关闭");
    }
    return update(
        outTradeNo,
        t ->
            t.state() == State.WAIT_BUYER_PAY
                ? t.with(State.TRADE_SUCCESS, t.tradeNo(), t.createdAt(), now(), null, t.refunds())
                : t);
  }

  SimulatedTrade close(String outTradeNo) throws Refused {
    SimulatedTrade t = find(outTradeNo).orElseThrow(SimulatedTrades::notExist);
    if (t.state() == State.PRECREATED) {
      throw notExist();
    }
    if (t.state() != State.WAIT_BUYER_PAY) {
      throw new Refused("ACQ.TRADE_STATUS_ERROR", "交易状态不合法: " + t.state());
    }
    return update(
        outTradeNo,
        x ->
            x.state() == State.WAIT_BUYER_PAY
                ? x.with(State.TRADE_CLOSED, x.tradeNo(), x.createdAt(), null, now(), x.refunds())
                : x);
  }

  /**
   * What a refund call did.
   *
   * @param trade the trade afterwards
   * @param refund the refund under the number asked
   * @param fresh true when this call made it; false when it was made before under this number, so
   *     nothing moved now (Alipay's {@code fund_change=N})
   */
  record Made(SimulatedTrade trade, Refund refund, boolean fresh) {}

  /** The trade whose {@code trade_no} this is, if any. */
  Optional<SimulatedTrade> findByTradeNo(String tradeNo) {
    return trades.values().stream()
        .filter(t -> tradeNo.equals(t.tradeNo()))
        .findFirst()
        .flatMap(t -> find(t.outTradeNo()));
  }

  /**
   * Refunds {@code amount} under {@code outRequestNo}, once per number: the same number again
   * answers the refund made before ({@code fresh} false), another amount under it is {@code
   * ACQ.DISCORDANT_REPEAT_REQUEST}.
   *
   * @throws Refused ACQ.TRADE_NOT_EXIST, ACQ.TRADE_STATUS_ERROR (not paid, or closed), or
   *     ACQ.REFUND_AMT_NOT_EQUAL_TOTAL (more than is left, or another currency)
   */
  synchronized Made refund(String outTradeNo, String outRequestNo, Money amount) throws Refused {
    SimulatedTrade t = find(outTradeNo).orElseThrow(SimulatedTrades::notExist);
    Optional<Refund> before =
        t.refunds().stream().filter(r -> r.outRequestNo().equals(outRequestNo)).findFirst();
    if (before.isPresent()) {
      if (!before.get().amount().equals(amount)) {
        throw new Refused("ACQ.DISCORDANT_REPEAT_REQUEST", "请求信息不一致 (other amount, same number)");
      }
      return new Made(t, before.get(), false);
    }
    if (t.state() != State.TRADE_SUCCESS) {
      throw new Refused("ACQ.TRADE_STATUS_ERROR", "交易状态不合法: " + t.state());
    }
    long left = t.amount().minorUnits() - t.refundedMinor();
    if (amount.minorUnits() > left || !amount.currency().equals(t.amount().currency())) {
      throw new Refused("ACQ.REFUND_AMT_NOT_EQUAL_TOTAL", "退款金额超限");
    }
    List<Refund> refunds = new ArrayList<>(t.refunds());
    Instant now = now();
    Refund made = new Refund(outRequestNo, amount, now);
    refunds.add(made);
    State state = amount.minorUnits() == left ? State.TRADE_CLOSED : State.TRADE_SUCCESS;
    SimulatedTrade after =
        update(
            outTradeNo,
            x ->
                x.with(
                    state,
                    x.tradeNo(),
                    x.createdAt(),
                    x.paidAt(),
                    state == State.TRADE_CLOSED ? now : null,
                    refunds));
    return new Made(after, made, true);
  }

  private SimulatedTrade update(String outTradeNo, UnaryOperator<SimulatedTrade> f) throws Refused {
    SimulatedTrade updated = trades.computeIfPresent(outTradeNo, (id, t) -> f.apply(expired(t)));
    if (updated == null) {
      throw notExist();
    }
    return updated;
  }

  private SimulatedTrade expired(SimulatedTrade t) {
    // An unscanned QR code just stops working; a scanned, unpaid trade is closed by Alipay.
    if (t.state() == State.WAIT_BUYER_PAY && !now().isBefore(t.timeExpire())) {
      return t.with(
          State.TRADE_CLOSED, t.tradeNo(), t.createdAt(), null, t.timeExpire(), t.refunds());
    }
    return t;
  }

  /**
   * Alipay's {@code trade_no} shape: 28 digits, the Beijing date ({@code yyyyMMdd}) first (e.g.
   * {@code 2013112011001004330000121536} in the open platform's 异步通知 sample); the 15 after {@code
   * 22001} are random so a new simulator never repeats a trade number an earlier one gave a payment
   * still in our database.
   */
  private String newTradeNo() {
    return DAY.format(now().atZone(AlipayTrades.BEIJING)) + "22001" + SimulatorIds.digits(15);
  }

  private Instant now() {
    return clock.instant();
  }

  private static Refused notExist() {
    return new Refused("ACQ.TRADE_NOT_EXIST", "交易不存在");
  }
}

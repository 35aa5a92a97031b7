package dev.payrelay.simulators.wechatpay;

import java.time.Clock;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The simulator's orders in memory, by {@code out_trade_no}, changed at the times its clock tells.
 * Thread-safe; each change is atomic per order.
 */
final class SimulatedOrders {

  private final Map<String, SimulatedOrder> orders = new ConcurrentHashMap<>();
  private final Clock clock;

  SimulatedOrders(Clock clock) {
    this.clock = clock;
  }

  /** The order as it stands, or empty if no such order was placed. */
  Optional<SimulatedOrder> find(String outTradeNo) {
    return Optional.ofNullable(orders.get(outTradeNo));
  }

  /**
   * The order as it stands, for the simulator's own operations.
   *
   * @throws IllegalStateException {@code ORDER_NOT_EXIST} if no such order was placed
   */
  SimulatedOrder get(String outTradeNo) {
    return find(outTradeNo)
        .orElseThrow(() -> new IllegalStateException("ORDER_NOT_EXIST: " + outTradeNo));
  }

  /**
   * Places an order with {@code terms}, created now, unless one with its {@code out_trade_no} is
   * there.
   *
   * @return the order under that {@code out_trade_no}: the new one, or the one placed before
   */
  SimulatedOrder placeIfAbsent(SimulatedOrder.Terms terms) {
    return orders.computeIfAbsent(
        terms.outTradeNo(), id -> SimulatedOrder.placed(terms, clock.instant()));
  }

  /**
   * The buyer pays the order now ({@link SimulatedOrder#paid}).
   *
   * @return the order, paid
   * @throws IllegalStateException if there is no such order, or it cannot be paid
   */
  SimulatedOrder pay(String outTradeNo) {
    get(outTradeNo);
    return orders.computeIfPresent(outTradeNo, (id, o) -> o.paid(clock));
  }

  /**
   * Refunds {@code fen} of the order now ({@link SimulatedOrder#refunded}).
   *
   * @return the order, the refund last of its refunds
   * @throws IllegalStateException if there is no such order, or it cannot be refunded so much
   */
  SimulatedOrder refund(String outTradeNo, String outRefundNo, long fen) {
    return refund(outTradeNo, outRefundNo, fen, "SUCCESS").order();
  }

  /**
   * What a refund call did.
   *
   * @param order the order afterwards
   * @param refund the refund under the number asked
   * @param fresh true when this call made it; false when it was made before under this number
   */
  record Made(SimulatedOrder order, SimulatedOrder.Refund refund, boolean fresh) {}

  /**
   * Refunds {@code fen} under {@code outRefundNo}, once per number ("申请退款": the same {@code
   * out_refund_no} answers the same refund): a repeat with the same amount answers the refund made
   * before, with another amount it is refused.
   *
   * @param status SUCCESS, or ABNORMAL to fail it
   * @throws IllegalStateException if there is no such order, it cannot be refunded so much, or the
   *     number was used with another amount ({@code PARAM_ERROR})
   */
  synchronized Made refund(String outTradeNo, String outRefundNo, long fen, String status) {
    SimulatedOrder before = get(outTradeNo);
    Optional<SimulatedOrder.Refund> made = before.refund(outRefundNo);
    if (made.isPresent()) {
      if (made.get().fen() != fen) {
        throw new IllegalStateException("PARAM_ERROR: out_refund_no used with another amount");
      }
      return new Made(before, made.get(), false);
    }
    SimulatedOrder after =
        orders.computeIfPresent(
            outTradeNo, (id, o) -> o.refunded(outRefundNo, fen, clock.instant(), status));
    return new Made(after, after.refunds().getLast(), true);
  }

  /** The order holding the refund under {@code outRefundNo}, if any. */
  Optional<SimulatedOrder> byRefundNo(String outRefundNo) {
    return orders.values().stream().filter(o -> o.refund(outRefundNo).isPresent()).findFirst();
  }

  /** The order whose {@code transaction_id} this is, if any. */
  Optional<SimulatedOrder> byTransactionId(String transactionId) {
    return orders.values().stream()
        .filter(o -> transactionId.equals(o.transactionId()))
        .findFirst();
  }

  /**
   * The merchant closes the order, unless the buyer paid it.
   *
   * @return false, and nothing changed, when it is paid (or there is no such order)
   */
  boolean close(String outTradeNo) {
    SimulatedOrder after =
        orders.computeIfPresent(outTradeNo, (id, o) -> o.isPaid() ? o : o.closed());
    return after != null && !after.isPaid();
  }

  /** Every order as it stands, oldest placed first. */
  List<SimulatedOrder> byCreation() {
    return orders.values().stream()
        .sorted(Comparator.comparing(SimulatedOrder::createdAt))
        .toList();
  }
}

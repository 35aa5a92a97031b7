package dev.payrelay.simulators.wechatpay;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** The simulator's orders in memory, by {@code out_trade_no}. Thread-safe. */
final class SimulatedOrders {

  private final Map<String, SimulatedOrder> orders = new ConcurrentHashMap<>();

  /** The order, or empty if no such order was placed. */
  Optional<SimulatedOrder> find(String outTradeNo) {
    return Optional.ofNullable(orders.get(outTradeNo));
  }

  /**
   * The order, for the simulator's own operations.
   *
   * @throws IllegalStateException {@code ORDER_NOT_EXIST} if no such order was placed
   */
  SimulatedOrder get(String outTradeNo) {
    return find(outTradeNo)
        .orElseThrow(() -> new IllegalStateException("ORDER_NOT_EXIST: " + outTradeNo));
  }

  /** Places {@code fresh} unless an order with its {@code out_trade_no} is there: that one. */
  SimulatedOrder placeIfAbsent(SimulatedOrder fresh) {
    return orders.computeIfAbsent(fresh.outTradeNo, k -> fresh);
  }

  /** Every order, oldest placed first. */
  List<SimulatedOrder> byCreation() {
    return orders.values().stream()
        .sorted(Comparator.comparing((SimulatedOrder o) -> o.createdAt))
        .toList();
  }
}

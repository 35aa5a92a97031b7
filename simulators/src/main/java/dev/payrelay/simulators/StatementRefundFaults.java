package dev.payrelay.simulators;

import dev.payrelay.domain.Money;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How a simulator's statement (bill) gets its refunds wrong, to exercise reconciliation's refund
 * gaps (issue 28 item 5): a refund left out (REFUND_MISSING_FROM_STATEMENT once payrelay recorded
 * it) or listed with another amount (REFUND_MISMATCH). Each simulator keys its refunds by a name
 * unique to one refund: the sandbox's refund id {@code sbr_…}, Stripe's {@code re_…}, Alipay's
 * {@code out_trade_no/out_request_no} (the request number is unique per trade only), WeChat Pay's
 * {@code out_refund_no} (unique per merchant). The faults hold from the call on, for every
 * statement the simulator renders afterwards; they never change the refund itself, its answers or
 * its notifications.
 */
public final class StatementRefundFaults {

  private final Set<String> omitted = ConcurrentHashMap.newKeySet();
  private final ConcurrentHashMap<String, Money> misstated = new ConcurrentHashMap<>();

  /**
   * Leaves the refund out of every statement from now on.
   *
   * @throws NullPointerException if {@code refundId} is null
   */
  public void omit(String refundId) {
    omitted.add(Objects.requireNonNull(refundId, "refundId"));
  }

  /**
   * Lists the refund with {@code amount} (minor units, any currency) instead of what it gave back,
   * on every statement from now on.
   *
   * @throws NullPointerException if an argument is null
   */
  public void misstate(String refundId, Money amount) {
    misstated.put(
        Objects.requireNonNull(refundId, "refundId"), Objects.requireNonNull(amount, "amount"));
  }

  /** Whether statements leave the refund out. */
  public boolean omits(String refundId) {
    return omitted.contains(refundId);
  }

  /** The amount statements list for the refund: its misstated amount, else {@code actual}. */
  public Money listed(String refundId, Money actual) {
    return misstated.getOrDefault(refundId, actual);
  }
}

package dev.payrelay.simulators.wechatpay;

import dev.payrelay.channels.wechatpay.WechatPayBillFormat;
import dev.payrelay.domain.Money;
import dev.payrelay.simulators.StatementRefundFaults;
import dev.payrelay.simulators.wechatpay.SimulatedOrder.Refund;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;

/**
 * Renders a day's ALL trade bill in the shape {@link WechatPayBillFormat} reads: the header row,
 * one backquoted row per payment and succeeded refund of that Beijing day, then the summary header
 * and its row (count, paid and refunded totals in yuan). Simplified: every order of the day is
 * listed, whether that day is over or not; fees are zero.
 */
final class SimulatedWechatBill {

  private static final String SUMMARY_COLUMNS = "总交易单数,应结订单总金额,退款总金额,充值券退款总金额,手续费总金额,订单总金额,申请退款总金额";

  private SimulatedWechatBill() {}

  /**
   * The bill's UTF-8 bytes.
   *
   * @param orders the orders in the order their rows are written (oldest placed first)
   * @param faults refunds (by {@code out_refund_no}) the bill leaves out or lists with another
   *     amount, its totals following what it lists
   */
  static byte[] render(
      WechatPaySimulatorConfig config,
      LocalDate date,
      List<SimulatedOrder> orders,
      StatementRefundFaults faults) {
    StringBuilder csv =
        new StringBuilder(String.join(",", WechatPayBillFormat.COLUMNS)).append("\r\n");
    int count = 0;
    long paid = 0;
    long refunded = 0;
    for (SimulatedOrder o : orders) {
      if (o.successTime() != null && day(o.successTime()).equals(date)) {
        csv.append(row(config, o, o.successTime(), "SUCCESS", null)).append("\r\n");
        count++;
        paid += o.terms().total();
      }
      for (Refund r : o.refunds()) {
        if (r.succeeded() && day(r.at()).equals(date) && !faults.omits(r.outRefundNo())) {
          Refund listed = listed(o, r, faults);
          csv.append(row(config, o, r.at(), "REFUND", listed)).append("\r\n");
          count++;
          refunded += listed.fen();
        }
      }
    }
    csv.append(SUMMARY_COLUMNS).append("\r\n");
    csv.append(summary(count, paid, refunded)).append("\r\n");
    return csv.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** The refund as the bill lists it: with its misstated amount, if any. */
  private static Refund listed(SimulatedOrder o, Refund r, StatementRefundFaults faults) {
    long fen =
        faults.listed(r.outRefundNo(), Money.ofMinor(r.fen(), o.terms().currency())).minorUnits();
    return new Refund(r.refundId(), r.outRefundNo(), fen, r.at(), r.status());
  }

  private static String summary(int count, long paid, long refunded) {
    return String.join(
        ",",
        "`" + count,
        "`" + yuan(paid),
        "`" + yuan(refunded),
        "`0.00",
        "`0.00",
        "`" + yuan(paid),
        "`" + yuan(refunded));
  }

  /**
   * A payment's row ({@code r} null) or refund {@code r}'s, in {@link WechatPayBillFormat#COLUMNS}.
   */
  private static String row(
      WechatPaySimulatorConfig config, SimulatedOrder o, Instant at, String state, Refund r) {
    List<String> v =
        List.of(
            WechatPayBillFormat.TIME.format(at.atZone(WechatPayBillFormat.BEIJING)),
            config.appId(),
            config.merchantId(),
            "0",
            "",
            o.transactionId(),
            o.terms().outTradeNo(),
            SimulatedOrder.PAYER_OPENID,
            "NATIVE",
            state,
            "OTHERS",
            o.terms().currency(),
            yuan(r == null ? o.terms().total() : 0),
            "0.00",
            r == null ? "0" : r.refundId(),
            r == null ? "0" : r.outRefundNo(),
            r == null ? "0.00" : yuan(r.fen()),
            "0.00",
            r == null ? "" : "ORIGINAL",
            r == null ? "" : "SUCCESS",
            o.terms().description().replace(",", " "),
            "",
            "0.00000",
            "0.60%",
            yuan(o.terms().total()),
            r == null ? "0.00" : yuan(r.fen()),
            "");
    return String.join(",", v.stream().map(x -> "`" + x).toList());
  }

  private static LocalDate day(Instant at) {
    return at.atZone(WechatPayBillFormat.BEIJING).toLocalDate();
  }

  private static String yuan(long fen) {
    return BigDecimal.valueOf(fen, 2).toPlainString();
  }
}

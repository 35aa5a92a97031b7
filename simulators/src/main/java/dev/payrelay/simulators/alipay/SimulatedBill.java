package dev.payrelay.simulators.alipay;

import dev.payrelay.channels.alipay.AlipayBillFormat;
import dev.payrelay.channels.alipay.AlipayTrades;
import dev.payrelay.simulators.StatementRefundFaults;
import dev.payrelay.simulators.alipay.SimulatedTrade.Refund;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Renders a day's trade bill in the shape {@link AlipayBillFormat} reads: a ZIP with the GBK detail
 * CSV and a summary CSV, {@code #} comment lines around the header and rows, each value followed by
 * a tab as in Alipay's files. Simplified: of the 25 columns only trade number, order id, type,
 * subject, created/finished times, order amount, received amount and refund request number are
 * filled; the summary file holds only the two totals; commas in subjects become full-width commas.
 */
final class SimulatedBill {

  private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("yyyyMMdd");

  private SimulatedBill() {}

  /**
   * The ZIP for {@code date} (Beijing time): trades paid and refunds made that day, each refund as
   * {@code faults} (keyed by {@link #refundKey}) has it: left out, or listed with another amount.
   */
  static byte[] render(
      String sellerId, LocalDate date, List<SimulatedTrade> trades, StatementRefundFaults faults) {
    List<String[]> rows = new ArrayList<>();
    int paid = 0;
    int refunded = 0;
    for (SimulatedTrade t : trades) {
      if (on(t.paidAt(), date)) {
        rows.add(row(t, AlipayBillFormat.TRADE, t.paidAt(), t.amount().toDecimalString(), ""));
        paid++;
      }
      for (Refund r : t.refunds()) {
        String key = refundKey(t.outTradeNo(), r.outRequestNo());
        if (on(r.at(), date) && !faults.omits(key)) {
          rows.add(
              row(
                  t,
                  AlipayBillFormat.REFUND,
                  r.at(),
                  "-" + faults.listed(key, r.amount()).toDecimalString(),
                  r.outRequestNo()));
          refunded++;
        }
      }
    }
    // In time order, like Alipay's file; ties by trade number, then refund request number.
    rows.sort(
        Comparator.<String[], String>comparing(r -> r[5])
            .thenComparing(r -> r[0])
            .thenComparing(r -> r[21]));
    String summary = "#支付宝业务汇总查询\n交易笔数,退款笔数\n" + paid + "," + refunded + "\n";
    return zip(
        sellerId + "_" + DAY.format(date), detail(sellerId, date, rows, paid, refunded), summary);
  }

  /**
   * The key a refund has in the bill's {@link StatementRefundFaults}: its trade's out_trade_no and
   * its out_request_no, which Alipay keeps unique per trade only.
   */
  static String refundKey(String outTradeNo, String outRequestNo) {
    return outTradeNo + "/" + outRequestNo;
  }

  /** The detail CSV: the {@code #} header lines, the column header, the rows, the totals. */
  private static String detail(
      String sellerId, LocalDate date, List<String[]> rows, int paid, int refunded) {
    StringBuilder detail = new StringBuilder();
    detail.append("#支付宝业务明细查询\n#账号：[").append(sellerId).append("]\n");
    detail.append("#起始日期：[").append(date).append(" 00:00:00]   终止日期：[");
    detail.append(date.plusDays(1)).append(" 00:00:00]\n");
    detail.append(
        "#-----------------------------------------业务明细列表----------------------------------------\n");
    detail.append(String.join(",", AlipayBillFormat.HEADER)).append('\n');
    for (String[] row : rows) {
      detail.append(String.join("\t,", row)).append("\t\n");
    }
    detail.append(
        "#-----------------------------------------业务明细列表结束------------------------------------\n");
    detail.append("#交易合计：").append(paid).append("笔，退款合计：").append(refunded).append("笔\n");
    detail.append("#导出时间：[").append(date.plusDays(1)).append(" 09:00:00]\n");
    return detail.toString();
  }

  private static String[] row(
      SimulatedTrade t, String kind, Instant at, String received, String refundRequestNo) {
    String[] row = new String[AlipayBillFormat.HEADER.size()];
    Collections.nCopies(row.length, "").toArray(row);
    row[0] = t.tradeNo();
    row[1] = t.outTradeNo();
    row[2] = kind;
    // Alipay's files are not quoted: a comma in a subject would split the row.
    row[3] = t.subject().replace(',', '，');
    row[4] = AlipayTrades.TIME.format(t.createdAt().atZone(AlipayTrades.BEIJING));
    row[5] = AlipayTrades.TIME.format(at.atZone(AlipayTrades.BEIJING));
    row[11] = t.amount().toDecimalString();
    row[12] = received;
    row[21] = refundRequestNo;
    return row;
  }

  private static boolean on(Instant at, LocalDate date) {
    return at != null && at.atZone(AlipayTrades.BEIJING).toLocalDate().equals(date);
  }

  private static byte[] zip(String prefix, String detail, String summary) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ZipOutputStream zip = new ZipOutputStream(bytes, AlipayBillFormat.CHARSET)) {
      zip.putNextEntry(new ZipEntry(prefix + AlipayBillFormat.DETAIL_SUFFIX));
      zip.write(detail.getBytes(AlipayBillFormat.CHARSET));
      zip.closeEntry();
      zip.putNextEntry(new ZipEntry(prefix + "_业务明细(汇总).csv"));
      zip.write(summary.getBytes(AlipayBillFormat.CHARSET));
      zip.closeEntry();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }
}

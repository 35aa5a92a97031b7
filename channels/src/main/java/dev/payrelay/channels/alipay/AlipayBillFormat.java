package dev.payrelay.channels.alipay;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.CallbackRejectedException;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.StatementLine;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.Charset;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;

/**
 * Alipay's trade bill ({@code bill_type=trade}) as {@code alipay.data.dataservice.bill.downloadurl
 * .query} points to it: a ZIP holding {@code <pid>_<yyyyMMdd>_业务明细.csv} (and a {@code
 * ..._业务明细(汇总).csv} summary, not read here), GBK-encoded, comment lines starting with {@code #}
 * before and after one header row and the detail rows; values may carry trailing tabs.
 *
 * <p>Columns read (by header name): 支付宝交易号 (trade_no), 商户订单号 (out_trade_no), 业务类型 (交易 = payment, 退款
 * = refund), 完成时间 (Beijing time, {@code yyyy-MM-dd HH:mm:ss}), 订单金额（元） (the order's amount, yuan),
 * 商家实收（元） (what the merchant received; negative on a refund row) and 退款批次号/请求号 (the refund's {@code
 * out_request_no}).
 */
public final class AlipayBillFormat {

  /** The bill's charset. */
  public static final Charset CHARSET = Charset.forName("GBK");

  /** Suffix of the detail file inside the ZIP. */
  public static final String DETAIL_SUFFIX = "_业务明细.csv";

  /**
   * The detail header row of Alipay's trade bill (read by column name, so order does not matter).
   */
  public static final List<String> HEADER =
      List.of(
          "支付宝交易号",
          "商户订单号",
          "业务类型",
          "商品名称",
          "创建时间",
          "完成时间",
          "门店编号",
          "门店名称",
          "操作员",
          "终端号",
          "对方账户",
          "订单金额（元）",
          "商家实收（元）",
          "支付宝红包（元）",
          "集分宝（元）",
          "支付宝优惠（元）",
          "商家优惠（元）",
          "券核销金额（元）",
          "券名称",
          "商家红包消费金额（元）",
          "卡消费金额（元）",
          "退款批次号/请求号",
          "服务费（元）",
          "分润（元）",
          "备注");

  public static final String TRADE = "交易";
  public static final String REFUND = "退款";

  private AlipayBillFormat() {}

  /**
   * Parses a bill ZIP into statement lines, in file order. A payment row becomes {@code PAYMENT},
   * PAID, channel txn = trade_no, amount = 订单金额; a refund row {@code REFUND}, REFUNDED, channel txn
   * = {@code trade_no + ":" + out_request_no} (Alipay keys a refund on the pair; the same id the
   * refund's answers and notifications get), amount = the absolute 商家实收. Amounts are CNY.
   *
   * @throws IOException if the ZIP has no detail file or cannot be read
   * @throws IllegalArgumentException naming the row for a row that is not a valid bill line
   */
  public static List<StatementLine> parse(byte[] zip) throws IOException {
    try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip), CHARSET)) {
      for (ZipEntry entry; (entry = in.getNextEntry()) != null; ) {
        if (entry.getName().endsWith(DETAIL_SUFFIX)) {
          return lines(new InputStreamReader(in, CHARSET));
        }
      }
    }
    throw new IOException("bill ZIP has no *" + DETAIL_SUFFIX + " file");
  }

  private static List<StatementLine> lines(Reader csv) throws IOException {
    CSVFormat format =
        CSVFormat.DEFAULT
            .builder()
            .setCommentMarker('#')
            .setIgnoreSurroundingSpaces(true)
            .setHeader()
            .setSkipHeaderRecord(true)
            .get();
    List<StatementLine> lines = new ArrayList<>();
    for (CSVRecord row : format.parse(csv)) {
      try {
        lines.add(line(row));
      } catch (CallbackRejectedException | RuntimeException bad) {
        throw new IllegalArgumentException(
            "bill row " + row.getRecordNumber() + " " + row.values().length + " columns: " + bad,
            bad);
      }
    }
    return lines;
  }

  private static StatementLine line(CSVRecord row) throws CallbackRejectedException {
    String tradeNo = row.get("支付宝交易号");
    Instant at =
        LocalDateTime.parse(row.get("完成时间"), AlipayTrades.TIME)
            .atZone(AlipayTrades.BEIJING)
            .toInstant();
    return switch (row.get("业务类型")) {
      case TRADE ->
          new StatementLine(
              tradeNo,
              row.get("商户订单号"),
              "PAYMENT",
              money(row.get("订单金额（元）")),
              ChannelPaymentStatus.PAID,
              at);
      case REFUND -> {
        String requestNo = row.get("退款批次号/请求号");
        yield new StatementLine(
            AlipayRefunds.refundId(tradeNo, requestNo),
            row.get("商户订单号"),
            StatementLine.REFUND,
            money(row.get("商家实收（元）").replaceFirst("^-", "")),
            ChannelPaymentStatus.REFUNDED,
            at,
            requestNo);
      }
      default -> throw new IllegalArgumentException("业务类型 " + row.get("业务类型") + " not read");
    };
  }

  private static Money money(String yuan) throws CallbackRejectedException {
    return AlipayNotifyParser.amount(yuan, null);
  }
}

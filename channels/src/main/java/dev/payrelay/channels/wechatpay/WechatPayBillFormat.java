package dev.payrelay.channels.wechatpay;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.StatementLine;
import java.io.IOException;
import java.io.StringReader;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * WeChat Pay's trade bill ("申请交易账单", {@code bill_type=ALL}), as downloaded from the bill's {@code
 * download_url}: UTF-8 CSV, a header row of Chinese column names, one row per transaction whose
 * every field starts with a backquote ({@code `}, so spreadsheets keep long ids as text), then a
 * summary header ({@code 总交易单数,...}) and its row. Amounts are yuan with two decimals; times are
 * Beijing time ({@code yyyy-MM-dd HH:mm:ss}).
 *
 * <p>Columns written and read here (the ALL bill's, per the docs): {@link #COLUMNS}.
 */
public final class WechatPayBillFormat {

  /** The ALL trade bill's columns, in order. */
  public static final List<String> COLUMNS =
      List.of(
          "交易时间", "公众账号ID", "商户号", "特约商户号", "设备号", "微信订单号", "商户订单号", "用户标识", "交易类型", "交易状态", "付款银行",
          "货币种类", "应结订单金额", "代金券金额", "微信退款单号", "商户退款单号", "退款金额", "充值券退款金额", "退款类型", "退款状态", "商品名称",
          "商户数据包", "手续费", "费率", "订单金额", "申请退款金额", "费率备注");

  /** The first column of the summary header that ends the transaction rows. */
  public static final String SUMMARY_HEADER = "总交易单数";

  /** WeChat Pay's settlement time zone. */
  public static final ZoneId BEIJING = ZoneId.of("Asia/Shanghai");

  public static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

  /**
   * WeChat Pay's time format ({@code time_expire}, {@code success_time}:
   * "yyyy-MM-DDTHH:mm:ss+TIMEZONE", RFC 3339 with seconds always written), in Beijing time.
   */
  public static final DateTimeFormatter RFC3339 =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssXXX");

  /** An instant in {@link #RFC3339} at Beijing's offset, e.g. {@code 2026-11-30T18:00:00+08:00}. */
  public static String rfc3339(Instant at) {
    return RFC3339.format(at.atZone(BEIJING));
  }

  private WechatPayBillFormat() {}

  /**
   * Reads a bill's transaction rows.
   *
   * <p>{@code 交易状态} SUCCESS: a PAYMENT line (id {@code 微信订单号}, amount {@code 订单金额}, PAID); REFUND:
   * a REFUND line (id {@code 微信退款单号}, our refund number {@code 商户退款单号}, amount {@code 申请退款金额},
   * REFUNDED); REVOKED: a PAYMENT line, CLOSED; any other state: a PAYMENT line, UNKNOWN.
   *
   * @param text the bill, decoded as UTF-8
   * @throws IllegalArgumentException if the header differs from {@link #COLUMNS}, a row has another
   *     number of fields, or a time, currency or amount does not parse (the message names the row)
   */
  public static List<StatementLine> parse(String text) {
    List<StatementLine> lines = new ArrayList<>();
    try (CSVParser csv = CSVFormat.DEFAULT.parse(new StringReader(text.replace("\uFEFF", "")))) {
      boolean header = true;
      for (CSVRecord row : csv) {
        if (header) {
          if (!row.toList().equals(COLUMNS)) {
            throw new IllegalArgumentException("not a WeChat Pay ALL trade bill: " + row.toList());
          }
          header = false;
          continue;
        }
        if (row.get(0).equals(SUMMARY_HEADER)) {
          break;
        }
        lines.add(line(row));
      }
      if (header) {
        throw new IllegalArgumentException("empty bill");
      }
    } catch (IOException e) {
      throw new IllegalArgumentException("unreadable bill", e);
    }
    return lines;
  }

  private static StatementLine line(CSVRecord row) {
    if (row.size() != COLUMNS.size()) {
      throw new IllegalArgumentException(
          "bill row " + row.getRecordNumber() + " has " + row.size() + " fields");
    }
    try {
      Instant at = LocalDateTime.parse(field(row, "交易时间"), TIME).atZone(BEIJING).toInstant();
      String currency = field(row, "货币种类");
      String code = currency.isEmpty() || currency.equals("CNY") ? "CNY" : currency;
      String paymentId = field(row, "商户订单号");
      return switch (field(row, "交易状态")) {
        case "REFUND" ->
            new StatementLine(
                field(row, "微信退款单号"),
                paymentId,
                "REFUND",
                Money.parse(field(row, "申请退款金额"), code),
                ChannelPaymentStatus.REFUNDED,
                at,
                field(row, "商户退款单号"));
        case "SUCCESS" -> payment(row, paymentId, code, ChannelPaymentStatus.PAID, at);
        case "REVOKED" -> payment(row, paymentId, code, ChannelPaymentStatus.CLOSED, at);
        default -> payment(row, paymentId, code, ChannelPaymentStatus.UNKNOWN, at);
      };
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "bill row " + row.getRecordNumber() + ": " + e.getMessage(), e);
    }
  }

  private static StatementLine payment(
      CSVRecord row, String paymentId, String code, ChannelPaymentStatus status, Instant at) {
    return new StatementLine(
        field(row, "微信订单号"),
        paymentId,
        "PAYMENT",
        Money.parse(field(row, "订单金额"), code),
        status,
        at);
  }

  /** A field without the leading backquote WeChat Pay puts in front of every value. */
  static String field(CSVRecord row, String column) {
    String v = row.get(COLUMNS.indexOf(column));
    return v.startsWith("`") ? v.substring(1) : v;
  }
}

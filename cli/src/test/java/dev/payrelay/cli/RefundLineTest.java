package dev.payrelay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** How {@code payrelay refund show|list} and {@code payment show} print one refund. */
class RefundLineTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void amountReadsInMajorUnitsWithItsMinorUnits_perTheCurrencysExponent() throws Exception {
    assertThat(line(500, "USD")).contains("  5.00 USD (500 minor units)  number rfn1");
    assertThat(line(500, "JPY")).contains("  500 JPY (500 minor units)  ");
    assertThat(line(1234, "KWD")).contains("  1.234 KWD (1234 minor units)  ");
  }

  @Test
  void failedRefundNamesTheChannelsReasonAndItsId() throws Exception {
    StringWriter text = new StringWriter();
    RefundCommand.printRefund(
        JSON.readTree(
            "{\"refundId\":\"rfd_1\",\"state\":\"FAILED\",\"amount\":{\"minorUnits\":1050,"
                + "\"currency\":\"USD\"},\"refundNo\":\"rfn1\",\"channelRefundId\":\"re_9\","
                + "\"requestedBy\":\"ops\",\"reason\":\"customer asked\","
                + "\"failureReason\":\"insufficient balance\"}"),
        new PrintWriter(text, true));
    assertThat(text.toString())
        .isEqualTo(
            "rfd_1  FAILED     10.50 USD (1050 minor units)  number rfn1  channel re_9  by ops:"
                + " customer asked (failed: insufficient balance)\n");
  }

  private static String line(long minor, String currency) throws Exception {
    StringWriter text = new StringWriter();
    RefundCommand.printRefund(
        JSON.readTree(
            "{\"refundId\":\"rfd_1\",\"state\":\"SUCCEEDED\",\"amount\":{\"minorUnits\":"
                + minor
                + ",\"currency\":\""
                + currency
                + "\"},\"refundNo\":\"rfn1\",\"requestedBy\":\"ops\",\"reason\":\"r\"}"),
        new PrintWriter(text, true));
    return text.toString();
  }
}

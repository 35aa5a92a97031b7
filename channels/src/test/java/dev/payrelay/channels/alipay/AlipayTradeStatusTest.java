package dev.payrelay.channels.alipay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.domain.channel.ChannelPaymentStatus;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AlipayTradeStatusTest {

  @ParameterizedTest(name = "{0} refund_fee={1} gmt_refund={2} -> {3}")
  @CsvSource(
      nullValues = "null",
      value = {
        "WAIT_BUYER_PAY, null, null, PENDING",
        "TRADE_SUCCESS,  null, null, PAID",
        "TRADE_FINISHED, null, null, PAID",
        "TRADE_CLOSED,   null, null, CLOSED",
        // Partial refund: still TRADE_SUCCESS, with the refund fields.
        "TRADE_SUCCESS,  3.00, 2026-11-30 10:00:00, REFUNDED",
        "TRADE_SUCCESS,  3.00, null, REFUNDED",
        // Full refund: TRADE_CLOSED with the refund fields is not an unpaid close.
        "TRADE_CLOSED,   10.00, 2026-11-30 10:00:00, REFUNDED",
        "TRADE_CLOSED,   null, 2026-11-30 10:00:00, REFUNDED",
        "TRADE_FINISHED, 1.00, null, REFUNDED",
        // Blank refund fields are absent ones.
        "TRADE_CLOSED,   '', '', CLOSED",
        // Undocumented or absent: recorded and acknowledged as UNKNOWN, never rejected.
        "TRADE_PENDING,  null, null, UNKNOWN",
        "trade_success,  null, null, UNKNOWN",
        "'',             null, null, UNKNOWN",
        "null,           null, null, UNKNOWN",
      })
  void everyDocumentedStatus_mapsByTheTable(
      String tradeStatus, String refundFee, String gmtRefund, ChannelPaymentStatus expected) {
    assertThat(AlipayTradeStatus.map(tradeStatus, refundFee, gmtRefund)).isEqualTo(expected);
  }
}

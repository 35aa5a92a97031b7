package dev.payrelay.channels.wechatpay;

import static org.assertj.core.api.Assertions.assertThat;

import com.wechat.pay.java.service.payments.model.Transaction.TradeStateEnum;
import com.wechat.pay.java.service.refund.model.Status;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.ChannelRefundStatus;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WechatPayTradeStateTest {

  @ParameterizedTest
  @CsvSource({
    "SUCCESS, PAID",
    "REFUND, REFUNDED",
    "NOTPAY, PENDING",
    "USERPAYING, PENDING",
    "ACCEPT, PENDING",
    "PAYERROR, PENDING",
    "CLOSED, CLOSED",
    "REVOKED, CLOSED",
    "SOMETHING_NEW, UNKNOWN",
    "success, UNKNOWN",
    "'', UNKNOWN"
  })
  void tradeState(String state, ChannelPaymentStatus expected) {
    assertThat(WechatPayTradeState.map(state)).isEqualTo(expected);
  }

  @Test
  void absentState_isUnknown() {
    assertThat(WechatPayTradeState.map(null)).isEqualTo(ChannelPaymentStatus.UNKNOWN);
  }

  @Test
  void everyStateTheSdkKnows_isMapped_noneToUnknown() {
    assertThat(Arrays.stream(TradeStateEnum.values()).map(s -> WechatPayTradeState.map(s.name())))
        .hasSize(8)
        .doesNotContain(ChannelPaymentStatus.UNKNOWN);
  }

  @ParameterizedTest
  @CsvSource({"SUCCESS, SUCCEEDED", "PROCESSING, PENDING", "ABNORMAL, FAILED", "CLOSED, FAILED"})
  void refundStatus(String status, ChannelRefundStatus expected) {
    assertThat(WechatPayTradeState.mapRefund(status)).isEqualTo(expected);
  }

  @Test
  void everyRefundStatusTheSdkKnows_isMapped_andAnUndocumentedOneIsNone() {
    assertThat(Arrays.stream(Status.values()).map(s -> WechatPayTradeState.mapRefund(s.name())))
        .hasSize(4)
        .doesNotContainNull();
    assertThat(WechatPayTradeState.mapRefund("SOMETHING_NEW")).isNull();
    assertThat(WechatPayTradeState.mapRefund(null)).isNull();
  }
}

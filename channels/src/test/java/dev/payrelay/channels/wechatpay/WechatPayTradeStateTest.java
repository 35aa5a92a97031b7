package dev.payrelay.channels.wechatpay;

import static org.assertj.core.api.Assertions.assertThat;

import com.wechat.pay.java.service.payments.model.Transaction.TradeStateEnum;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
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
  @CsvSource({
    "REFUND.SUCCESS, REFUNDED",
    "REFUND.ABNORMAL, UNKNOWN",
    "REFUND.CLOSED, UNKNOWN",
    "REFUND.OTHER, UNKNOWN"
  })
  void refundEvent(String eventType, ChannelPaymentStatus expected) {
    assertThat(WechatPayTradeState.mapRefundEvent(eventType)).isEqualTo(expected);
  }
}

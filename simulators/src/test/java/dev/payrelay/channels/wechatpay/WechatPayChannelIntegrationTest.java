package dev.payrelay.channels.wechatpay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.payrelay.channels.MutableClock;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.ChannelException;
import dev.payrelay.domain.channel.ChannelPaymentRequest;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.ChannelQueryResult;
import dev.payrelay.domain.channel.ChannelRegistration;
import dev.payrelay.domain.channel.StatementLine;
import dev.payrelay.domain.channel.StatementPage;
import dev.payrelay.simulators.RsaKeyPair;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class WechatPayChannelIntegrationTest {

  private WechatPayFixture fx;

  @BeforeEach
  void start() throws Exception {
    fx = new WechatPayFixture();
  }

  @AfterEach
  void stop() {
    fx.close();
  }

  @Test
  void register_answersCodeUrl_andAgainTheSame_andRefusesAnotherAmount() throws Exception {
    ChannelRegistration first = fx.channel.register(fx.payment("pay-1", "10.50"));
    assertThat(first.payUrl()).startsWith("weixin://wxpay/bizpayurl?pr=");
    assertThat(fx.channel.register(fx.payment("pay-1", "10.50"))).isEqualTo(first);

    assertThatThrownBy(() -> fx.channel.register(fx.payment("pay-1", "11.00")))
        .isInstanceOf(ChannelException.class)
        .hasMessageContaining("INVALID_REQUEST")
        .extracting(e -> ((ChannelException) e).retryable())
        .isEqualTo(false);
  }

  @Test
  void register_forAnotherMerchant_isRefusedBeforeCallingWechat() {
    ChannelPaymentRequest p = fx.payment("pay-x", "1.00");
    ChannelPaymentRequest other =
        new ChannelPaymentRequest(
            p.paymentId(), "1900000002", p.amount(), p.description(), p.expiresAt());
    assertThatThrownBy(() -> fx.channel.register(other)).isInstanceOf(ChannelException.class);
    assertThat(fx.simulator.tradeState("pay-x")).isEmpty();
  }

  @Test
  void query_isPendingThenPaid_withTransactionIdAndAmount() throws Exception {
    fx.channel.register(fx.payment("pay-2", "8.88"));
    assertThat(fx.channel.query("pay-2"))
        .isEqualTo(
            new ChannelQueryResult(
                "pay-2", ChannelPaymentStatus.PENDING, null, Money.ofMinor(888, "CNY")));

    fx.simulator.pay("pay-2");

    assertThat(fx.channel.query("pay-2"))
        .isEqualTo(
            new ChannelQueryResult(
                "pay-2",
                ChannelPaymentStatus.PAID,
                fx.simulator.transactionId("pay-2").orElseThrow(),
                Money.ofMinor(888, "CNY")));
  }

  @Test
  void timeExpire_isSentWithSeconds_evenOnAWholeMinute_andTheSimulatorEnforcesIt()
      throws Exception {
    MutableClock clock = new MutableClock(Instant.parse("2026-11-30T02:00:00Z"));
    try (WechatPayFixture whole = new WechatPayFixture(clock)) {
      // 03:00:00Z is 11:00:00+08:00; without seconds the simulator answers PARAM_ERROR.
      whole.channel.register(whole.payment("pay-e", "1.00"));
      clock.advance(Duration.ofMinutes(61));
      assertThatThrownBy(() -> whole.simulator.pay("pay-e"))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("time_expire");
      assertThat(whole.channel.query("pay-e").status()).isEqualTo(ChannelPaymentStatus.PENDING);
    }
  }

  @Test
  void query_ofAnUnknownOrder_isNotFound() throws Exception {
    assertThat(fx.channel.query("nope").status()).isEqualTo(ChannelPaymentStatus.NOT_FOUND);
  }

  @Test
  void close_closesAnUnpaidOrder_andIsIdempotent() throws Exception {
    fx.channel.register(fx.payment("pay-3", "1.00"));
    assertThat(fx.channel.close("pay-3").status()).isEqualTo(ChannelPaymentStatus.CLOSED);
    assertThat(fx.channel.close("pay-3").status()).isEqualTo(ChannelPaymentStatus.CLOSED);
    assertThat(fx.simulator.tradeState("pay-3")).contains("CLOSED");
    assertThatThrownBy(() -> fx.simulator.pay("pay-3")).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void close_ofAPaidOrder_answersPaid() throws Exception {
    fx.channel.register(fx.payment("pay-4", "1.00"));
    fx.simulator.pay("pay-4");
    ChannelQueryResult r = fx.channel.close("pay-4");
    assertThat(r.status()).isEqualTo(ChannelPaymentStatus.PAID);
    assertThat(r.channelTxnId()).isEqualTo(fx.simulator.transactionId("pay-4").orElseThrow());
  }

  @Test
  void refundedOrder_queriesRefunded() throws Exception {
    fx.channel.register(fx.payment("pay-5", "2.00"));
    fx.simulator.pay("pay-5");
    fx.simulator.refund("pay-5", "rf-5", 200);
    assertThat(fx.channel.query("pay-5").status()).isEqualTo(ChannelPaymentStatus.REFUNDED);
  }

  @Test
  void statement_listsTheDaysPaymentsAndRefunds_fromTheHashCheckedBill() throws Exception {
    fx.channel.register(fx.payment("pay-6", "12.34"));
    fx.channel.register(fx.payment("pay-7", "0.01"));
    fx.channel.register(fx.payment("pay-8", "5.00"));
    fx.simulator.pay("pay-6");
    fx.simulator.pay("pay-7");
    fx.simulator.refund("pay-6", "rf-6", 234);
    LocalDate today = fx.clock.instant().atZone(WechatPayBillFormat.BEIJING).toLocalDate();

    StatementPage page = fx.channel.statement(today, null);

    assertThat(page.nextPageToken()).isNull();
    assertThat(page.lines())
        .extracting(
            StatementLine::paymentId,
            StatementLine::kind,
            StatementLine::amount,
            StatementLine::status)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple(
                "pay-6", "PAYMENT", Money.ofMinor(1234, "CNY"), ChannelPaymentStatus.PAID),
            org.assertj.core.groups.Tuple.tuple(
                "pay-7", "PAYMENT", Money.ofMinor(1, "CNY"), ChannelPaymentStatus.PAID),
            org.assertj.core.groups.Tuple.tuple(
                "pay-6", "REFUND", Money.ofMinor(234, "CNY"), ChannelPaymentStatus.REFUNDED));
    assertThat(page.lines())
        .filteredOn(l -> l.kind().equals("PAYMENT") && l.paymentId().equals("pay-6"))
        .singleElement()
        .extracting(StatementLine::channelTxnId)
        .isEqualTo(fx.simulator.transactionId("pay-6").orElseThrow());
    assertThat(page.lines())
        .filteredOn(StatementLine::isRefund)
        .singleElement()
        .extracting(StatementLine::refundNo)
        .isEqualTo("rf-6");
    assertThat(fx.channel.statement(today.minusDays(1), null).lines()).isEmpty();
  }

  @Test
  void statement_billLeavesOutAnOmittedRefund_andListsAMisstatedOneWithItsOtherAmount()
      throws Exception {
    fx.channel.register(fx.payment("pay-9", "30.00"));
    fx.simulator.pay("pay-9");
    fx.simulator.refund("pay-9", "rf-9a", 500);
    fx.simulator.refund("pay-9", "rf-9b", 700);
    fx.simulator.omitRefundFromBill("rf-9a");
    fx.simulator.misstateRefundOnBill("rf-9b", Money.ofMinor(750, "CNY"));
    LocalDate today = fx.clock.instant().atZone(WechatPayBillFormat.BEIJING).toLocalDate();

    List<StatementLine> refunds =
        fx.channel.statement(today, null).lines().stream().filter(StatementLine::isRefund).toList();

    assertThat(refunds)
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.channelTxnId()).startsWith("50");
              assertThat(r.paymentId()).isEqualTo("pay-9");
              assertThat(r.amount()).isEqualTo(Money.ofMinor(750, "CNY"));
              assertThat(r.status()).isEqualTo(ChannelPaymentStatus.REFUNDED);
              assertThat(r.refundNo()).isEqualTo("rf-9b");
            });
  }

  @Test
  void requestsSignedWithAnotherMerchantKey_areRefusedBySimulator_notRetryable() {
    WechatPayChannel forged =
        fx.channel(WechatPayFixture.API_V3_KEY, RsaKeyPair.generate().privateKey());
    assertThatThrownBy(() -> forged.query("pay-9"))
        .isInstanceOf(ChannelException.class)
        .hasMessageContaining("SIGN_ERROR")
        .extracting(e -> ((ChannelException) e).retryable())
        .isEqualTo(false);
  }

  @Test
  void answersSignedWithAnotherPlatformKey_areRefusedByTheSdk() throws Exception {
    fx.channel.register(fx.payment("pay-10", "1.00"));
    fx.simulator.setSigningKey(RsaKeyPair.generate().privateKey(), WechatPayFixture.PUB_KEY_ID);
    assertThatThrownBy(() -> fx.channel.query("pay-10"))
        .isInstanceOf(ChannelException.class)
        .extracting(e -> ((ChannelException) e).retryable())
        .isEqualTo(false);
  }

  @Test
  void unreachableWechat_isRetryable() throws Exception {
    WechatPayChannel channel =
        fx.channel(WechatPayFixture.API_V3_KEY, WechatPayFixture.MERCHANT_KEYS.privateKey());
    fx.simulator.close();
    assertThatThrownBy(() -> channel.query("pay-11"))
        .isInstanceOf(ChannelException.class)
        .extracting(e -> ((ChannelException) e).retryable())
        .isEqualTo(true);
  }
}

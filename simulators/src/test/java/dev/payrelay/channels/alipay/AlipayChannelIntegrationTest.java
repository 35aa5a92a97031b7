package dev.payrelay.channels.alipay;

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
import dev.payrelay.simulators.alipay.SimulatedTrade;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Register, query, close and statement through the SDK against the simulator's gateway. */
class AlipayChannelIntegrationTest {

  /** 2026-11-30 10:00 in Beijing. */
  private static final Instant START = Instant.parse("2026-11-30T02:00:00Z");

  private MutableClock clock;
  private AlipayFixture fx;

  @BeforeEach
  void start() throws Exception {
    clock = new MutableClock(START);
    fx = new AlipayFixture(clock);
  }

  @AfterEach
  void stop() {
    fx.close();
  }

  @Test
  void register_answersTheQrCode_andTheSameOneAgain() throws Exception {
    ChannelRegistration first = fx.channel.register(fx.payment("reg-1", "10.50"));
    ChannelRegistration again = fx.channel.register(fx.payment("reg-1", "10.50"));

    assertThat(first.paymentId()).isEqualTo("reg-1");
    assertThat(first.payUrl()).isEqualTo(fx.simulator.baseUrl() + "/qr/reg-1");
    assertThat(again).isEqualTo(first);
    SimulatedTrade trade = fx.simulator.trade("reg-1").orElseThrow();
    assertThat(trade.amount()).isEqualTo(Money.ofMinor(1050, "CNY"));
    assertThat(trade.notifyUrl()).isEqualTo(fx.receiver.url().toString());
    assertThat(trade.timeExpire()).isEqualTo(START.plus(Duration.ofHours(1)));
  }

  @Test
  void register_sameIdOtherAmount_orNotCny_orOtherMerchant_isRefusedForGood() throws Exception {
    fx.channel.register(fx.payment("reg-2", "10.50"));
    ChannelPaymentRequest usd =
        new ChannelPaymentRequest(
            "reg-usd", AlipayFixture.APP_ID, Money.ofMinor(100, "USD"), "x", START.plusSeconds(60));
    ChannelPaymentRequest otherApp =
        new ChannelPaymentRequest(
            "reg-app", "2021999999999999", Money.ofMinor(100, "CNY"), "x", START.plusSeconds(60));

    assertChannelException(
        () -> fx.channel.register(fx.payment("reg-2", "10.51")), false, "ACQ.CONTEXT_INCONSISTENT");
    assertChannelException(() -> fx.channel.register(usd), false, "CNY");
    assertChannelException(() -> fx.channel.register(otherApp), false, "2021999999999999");
  }

  @Test
  void query_followsTheTrade_notFoundUntilScanned_pendingThenPaid() throws Exception {
    fx.channel.register(fx.payment("q-1", "10.5"));

    assertThat(fx.channel.query("q-1"))
        .isEqualTo(new ChannelQueryResult("q-1", ChannelPaymentStatus.NOT_FOUND, null, null));

    fx.simulator.scan("q-1");
    assertThat(fx.channel.query("q-1"))
        .isEqualTo(
            new ChannelQueryResult(
                "q-1", ChannelPaymentStatus.PENDING, null, Money.ofMinor(1050, "CNY")));

    fx.simulator.pay("q-1");
    String tradeNo = fx.simulator.trade("q-1").orElseThrow().tradeNo();
    assertThat(fx.channel.query("q-1"))
        .isEqualTo(
            new ChannelQueryResult(
                "q-1", ChannelPaymentStatus.PAID, tradeNo, Money.ofMinor(1050, "CNY")));
  }

  @Test
  void query_ofAScannedTradePastTimeExpire_isClosed() throws Exception {
    fx.channel.register(fx.payment("q-exp", "1.00"));
    fx.simulator.scan("q-exp");
    clock.advance(Duration.ofHours(2));

    assertThat(fx.channel.query("q-exp").status()).isEqualTo(ChannelPaymentStatus.CLOSED);
  }

  @Test
  void close_unpaid_isClosed_andAgain_andPaidFirst_isPaid_andUnscanned_isNotFound()
      throws Exception {
    fx.channel.register(fx.payment("c-1", "5.00"));
    fx.simulator.scan("c-1");
    fx.channel.register(fx.payment("c-paid", "5.00"));
    fx.simulator.pay("c-paid");
    fx.channel.register(fx.payment("c-unscanned", "5.00"));

    assertThat(fx.channel.close("c-1").status()).isEqualTo(ChannelPaymentStatus.CLOSED);
    assertThat(fx.channel.close("c-1").status()).isEqualTo(ChannelPaymentStatus.CLOSED);
    ChannelQueryResult paid = fx.channel.close("c-paid");
    assertThat(paid.status()).isEqualTo(ChannelPaymentStatus.PAID);
    assertThat(paid.channelTxnId()).isEqualTo(fx.simulator.trade("c-paid").orElseThrow().tradeNo());
    assertThat(fx.channel.close("c-unscanned").status()).isEqualTo(ChannelPaymentStatus.NOT_FOUND);
    assertThatThrownBy(() -> fx.simulator.pay("c-1")).hasMessageContaining("ACQ.TRADE_HAS_CLOSE");
  }

  @Test
  void statement_readsTheDaysGbkZipBill_paymentsAndRefunds() throws Exception {
    fx.channel.register(fx.payment("s-1", "10.50"));
    fx.simulator.pay("s-1");
    fx.channel.register(fx.payment("s-2", "20.00"));
    fx.simulator.pay("s-2");
    clock.advance(Duration.ofMinutes(5));
    fx.simulator.refund("s-2", "refund-1", Money.ofMinor(500, "CNY"));
    clock.advance(Duration.ofDays(1));
    LocalDate day = START.atZone(ZoneId.of("Asia/Shanghai")).toLocalDate();
    String s1 = fx.simulator.trade("s-1").orElseThrow().tradeNo();
    String s2 = fx.simulator.trade("s-2").orElseThrow().tradeNo();

    StatementPage page = fx.channel.statement(day, null);

    // Both paid at START: the bill breaks the tie by trade number, which is random.
    List<StatementLine> payments =
        Stream.of(
                new StatementLine(
                    s1,
                    "s-1",
                    "PAYMENT",
                    Money.ofMinor(1050, "CNY"),
                    ChannelPaymentStatus.PAID,
                    START),
                new StatementLine(
                    s2,
                    "s-2",
                    "PAYMENT",
                    Money.ofMinor(2000, "CNY"),
                    ChannelPaymentStatus.PAID,
                    START))
            .sorted(Comparator.comparing(StatementLine::channelTxnId))
            .toList();
    assertThat(page.nextPageToken()).isNull();
    assertThat(page.lines())
        .containsExactly(
            payments.get(0),
            payments.get(1),
            new StatementLine(
                s2 + ":refund-1",
                "s-2",
                "REFUND",
                Money.ofMinor(500, "CNY"),
                ChannelPaymentStatus.REFUNDED,
                START.plus(Duration.ofMinutes(5)),
                "refund-1"));
    assertThat(fx.channel.statement(day.minusDays(1), null).lines()).isEmpty();
  }

  @Test
  void statement_ofToday_isNotGeneratedYet_andRetryable() {
    LocalDate today = START.atZone(ZoneId.of("Asia/Shanghai")).toLocalDate();

    assertChannelException(() -> fx.channel.statement(today, null), true, "no bill");
  }

  @Test
  void answerSignedWithAnotherKey_isRefusedBySdk_notRetryable() throws Exception {
    fx.simulator.setSigningKey(AlipayFixture.APP_KEYS.privateKey());

    assertChannelException(() -> fx.channel.query("any"), false, "alipay.trade.query");
  }

  @Test
  void requestSignedWithAnotherKeyThanTheApps_isRefusedByTheGateway() {
    AlipayChannel wrongKey =
        fx.channel(fx.simulator.gatewayUrl(), RsaKeyPair.generate().privateKey());

    assertChannelException(
        () -> wrongKey.register(fx.payment("k-1", "1.00")), false, "isv.invalid-signature");
    assertThat(fx.simulator.trade("k-1")).isEmpty();
  }

  @Test
  void gatewayNotListening_isRetryable() throws Exception {
    int freePort;
    try (ServerSocket socket = new ServerSocket(0)) {
      freePort = socket.getLocalPort();
    }
    AlipayChannel nowhere =
        fx.channelAt(URI.create("http://127.0.0.1:" + freePort + "/gateway.do"));

    assertChannelException(() -> nowhere.query("any"), true, "alipay.trade.query");
  }

  private static void assertChannelException(
      ThrowingCallable call, boolean retryable, String messagePart) {
    assertThatThrownBy(call)
        .isInstanceOf(ChannelException.class)
        .hasMessageContaining(messagePart)
        .extracting(e -> ((ChannelException) e).retryable())
        .isEqualTo(retryable);
  }
}

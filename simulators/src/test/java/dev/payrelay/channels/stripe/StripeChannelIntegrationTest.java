package dev.payrelay.channels.stripe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.ChannelException;
import dev.payrelay.domain.channel.ChannelPaymentRequest;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.ChannelQueryResult;
import dev.payrelay.domain.channel.ChannelRegistration;
import dev.payrelay.domain.channel.StatementLine;
import dev.payrelay.domain.channel.StatementPage;
import dev.payrelay.domain.channel.VerifiedCallback;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class StripeChannelIntegrationTest {

  private StripeFixture fx;

  @BeforeEach
  void start() throws Exception {
    fx = new StripeFixture(2);
  }

  @AfterEach
  void stop() {
    fx.close();
  }

  private ChannelRegistration register(String paymentId, Money amount) throws ChannelException {
    return fx.channel.register(
        new ChannelPaymentRequest(
            paymentId,
            StripeFixture.ACCOUNT,
            amount,
            "course " + paymentId,
            Instant.now().plusSeconds(900)));
  }

  @Test
  void register_createsOneIntent_keyedOnThePaymentId_evenWhenRepeated() throws Exception {
    ChannelRegistration first = register("p-1", Money.ofMinor(1050, "USD"));
    ChannelRegistration again = register("p-1", Money.ofMinor(1050, "USD"));

    String intentId = fx.simulator.intentId("p-1");
    assertThat(again).isEqualTo(first);
    assertThat(first.payUrl())
        .startsWith("https://shop.example/pay?payment_intent=" + intentId)
        .contains("&payment_intent_client_secret=" + intentId + "_secret_");
    assertThat(fx.simulator.idempotencyKeys()).containsExactly("p-1", "p-1");
    assertThat(fx.channel.query("p-1"))
        .isEqualTo(
            new ChannelQueryResult(
                "p-1", ChannelPaymentStatus.PENDING, null, Money.ofMinor(1050, "USD")));
  }

  @Test
  void register_refusesAnotherMerchant_andAThreeDecimalAmountStripeCannotCharge() {
    ChannelException otherMerchant =
        catchThrowableOfType(
            ChannelException.class,
            () ->
                fx.channel.register(
                    new ChannelPaymentRequest(
                        "p-2", "acct_other", Money.ofMinor(100, "USD"), "x", Instant.now())));
    ChannelException kwd =
        catchThrowableOfType(
            ChannelException.class, () -> register("p-3", Money.ofMinor(5124, "KWD")));

    assertThat(otherMerchant.retryable()).isFalse();
    assertThat(kwd.retryable()).isFalse();
    assertThat(kwd).hasMessageContaining("last digit");
    assertThat(fx.simulator.idempotencyKeys()).isEmpty();
  }

  @Test
  void register_samePaymentWithAnotherAmount_isRefusedByStripesIdempotency_notRetried()
      throws Exception {
    register("p-8", Money.ofMinor(1050, "USD"));

    ChannelException e =
        catchThrowableOfType(
            ChannelException.class, () -> register("p-8", Money.ofMinor(2000, "USD")));

    assertThat(e.retryable()).isFalse();
    assertThat(e).hasMessageContaining("same parameters");
    assertThat(fx.channel.query("p-8").amount()).isEqualTo(Money.ofMinor(1050, "USD"));
  }

  @Test
  void serverErrorsAndRateLimits_areRetryable_otherRefusalsAreNot() throws Exception {
    fx.simulator.failNext(503, 1);
    ChannelException unavailable =
        catchThrowableOfType(
            ChannelException.class, () -> register("p-9", Money.ofMinor(100, "USD")));
    fx.simulator.failNext(429, 1);
    ChannelException limited =
        catchThrowableOfType(ChannelException.class, () -> fx.channel.query("p-9"));
    fx.simulator.failNext(403, 1);
    ChannelException forbidden =
        catchThrowableOfType(ChannelException.class, () -> fx.channel.query("p-9"));

    assertThat(unavailable.retryable()).isTrue();
    assertThat(limited.retryable()).isTrue();
    assertThat(forbidden.retryable()).isFalse();
    register("p-9", Money.ofMinor(100, "USD"));
    assertThat(fx.channel.query("p-9").status()).isEqualTo(ChannelPaymentStatus.PENDING);
  }

  @Test
  void unreachableStripe_isARetryableFailure() throws Exception {
    java.net.URI closed;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      closed = java.net.URI.create("http://127.0.0.1:" + socket.getLocalPort());
    }
    StripeChannel unreachable =
        new StripeChannel(
            new StripeChannelConfig(
                StripeFixture.ACCOUNT,
                fx.apiKey,
                fx.webhookSecret,
                closed,
                java.net.URI.create("https://shop.example/pay"),
                StripeChannelConfig.DEFAULT_TOLERANCE,
                java.time.Duration.ofSeconds(1),
                java.time.Duration.ofSeconds(1),
                ZoneOffset.UTC),
            java.time.Clock.systemUTC());

    ChannelException e =
        catchThrowableOfType(ChannelException.class, () -> unreachable.query("p-1"));

    assertThat(e.retryable()).isTrue();
  }

  @Test
  void query_unknownPayment_isNotFound() throws Exception {
    assertThat(fx.channel.query("p-none"))
        .isEqualTo(new ChannelQueryResult("p-none", ChannelPaymentStatus.NOT_FOUND, null, null));
  }

  @Test
  void paid_queriesAsPaid_withTheIntentAsTransaction_andTheCallbackAgrees() throws Exception {
    register("p-4", Money.ofMinor(5120, "KWD"));
    String intentId = fx.simulator.intentId("p-4");
    var event = fx.simulator.pay(intentId);

    assertThat(event.deliveryStatus()).isEqualTo(200);
    assertThat(fx.channel.query("p-4"))
        .isEqualTo(
            new ChannelQueryResult(
                "p-4", ChannelPaymentStatus.PAID, intentId, Money.ofMinor(5120, "KWD")));
    assertThat(fx.last().callback())
        .isEqualTo(
            new VerifiedCallback(
                event.eventId(),
                StripeFixture.ACCOUNT,
                "p-4",
                intentId,
                Money.ofMinor(5120, "KWD"),
                ChannelPaymentStatus.PAID));
  }

  @Test
  void everyEventTheSimulatorSends_verifiesAndParses_toItsStatus() throws Exception {
    register("p-5", Money.ofMinor(500, "JPY"));
    String pi = fx.simulator.intentId("p-5");
    VerifiedCallback created = fx.last().callback();
    fx.simulator.advance(pi, "requires_action", "payment_intent.requires_action");
    VerifiedCallback action = fx.last().callback();
    fx.simulator.advance(pi, "processing", "payment_intent.processing");
    VerifiedCallback processing = fx.last().callback();
    fx.simulator.advance(pi, "processing", "payment_intent.partially_funded");
    VerifiedCallback unknown = fx.last().callback();
    fx.simulator.pay(pi);
    VerifiedCallback paid = fx.last().callback();
    fx.simulator.dispute(pi);
    VerifiedCallback disputed = fx.last().callback();
    fx.simulator.refund(pi);
    VerifiedCallback refunded = fx.last().callback();

    assertThat(fx.received).allSatisfy(r -> assertThat(r.e()).isNull());
    assertThat(
            List.of(created, action, processing, unknown, paid, disputed, refunded).stream()
                .map(VerifiedCallback::status))
        .containsExactly(
            ChannelPaymentStatus.PENDING,
            ChannelPaymentStatus.PENDING,
            ChannelPaymentStatus.PENDING,
            ChannelPaymentStatus.UNKNOWN,
            ChannelPaymentStatus.PAID,
            ChannelPaymentStatus.DISPUTED,
            ChannelPaymentStatus.REFUNDED);
    assertThat(List.of(created, unknown, paid, disputed, refunded))
        .allSatisfy(
            cb -> {
              assertThat(cb.paymentId()).isEqualTo("p-5");
              assertThat(cb.channelTxnId()).isEqualTo(pi);
              assertThat(cb.amount()).isEqualTo(Money.ofMinor(500, "JPY"));
            });
  }

  @Test
  void close_cancelsAPendingIntent_onceAndForAll() throws Exception {
    register("p-6", Money.ofMinor(1999, "EUR"));

    ChannelQueryResult first = fx.channel.close("p-6");
    ChannelQueryResult second = fx.channel.close("p-6");

    assertThat(first.status()).isEqualTo(ChannelPaymentStatus.CLOSED);
    assertThat(second).isEqualTo(first);
    assertThat(fx.simulator.idempotencyKeys()).containsExactly("p-6", "close:p-6", "close:p-6");
    assertThat(fx.last().callback().status()).isEqualTo(ChannelPaymentStatus.CLOSED);
    assertThat(fx.channel.query("p-6").status()).isEqualTo(ChannelPaymentStatus.CLOSED);
  }

  @Test
  void close_ofAnIntentThatSucceeded_answersPaid_soItIsConfirmedNotClosed() throws Exception {
    register("p-7", Money.ofMinor(1050, "USD"));
    String pi = fx.simulator.intentId("p-7");
    fx.simulator.pay(pi);

    assertThat(fx.channel.close("p-7"))
        .isEqualTo(
            new ChannelQueryResult(
                "p-7", ChannelPaymentStatus.PAID, pi, Money.ofMinor(1050, "USD")));
    assertThat(fx.channel.close("p-none").status()).isEqualTo(ChannelPaymentStatus.NOT_FOUND);
  }

  @Test
  void statement_pagesThroughTheDaysPaymentsAndRefunds_withOurPaymentIds() throws Exception {
    for (String id : List.of("s-1", "s-2", "s-3")) {
      register(id, Money.ofMinor(1000, "USD"));
      fx.simulator.pay(fx.simulator.intentId(id));
    }
    fx.simulator.refund(fx.simulator.intentId("s-2"));
    LocalDate today = LocalDate.now(ZoneOffset.UTC);

    List<StatementLine> lines = new ArrayList<>();
    List<String> tokens = new ArrayList<>();
    String token = null;
    do {
      StatementPage page = fx.channel.statement(today, token);
      assertThat(page.lines()).hasSizeLessThanOrEqualTo(2);
      lines.addAll(page.lines());
      token = page.nextPageToken();
      tokens.add(token);
    } while (token != null);

    assertThat(tokens).hasSize(2);
    assertThat(lines)
        .extracting(StatementLine::paymentId, StatementLine::kind, StatementLine::status)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("s-2", "REFUND", ChannelPaymentStatus.REFUNDED),
            org.assertj.core.groups.Tuple.tuple("s-3", "PAYMENT", ChannelPaymentStatus.PAID),
            org.assertj.core.groups.Tuple.tuple("s-2", "PAYMENT", ChannelPaymentStatus.PAID),
            org.assertj.core.groups.Tuple.tuple("s-1", "PAYMENT", ChannelPaymentStatus.PAID));
    assertThat(lines).allSatisfy(l -> assertThat(l.amount()).isEqualTo(Money.ofMinor(1000, "USD")));
    assertThat(lines.get(1).channelTxnId()).isEqualTo(fx.simulator.intentId("s-3"));
    assertThat(lines.get(0).channelTxnId()).startsWith("re_");
    assertThat(fx.channel.statement(today.minusDays(1), null).lines()).isEmpty();
  }

  @Test
  void wrongApiKey_isAPermanentFailure() {
    StripeChannel wrongKey =
        new StripeChannel(
            new StripeChannelConfig(
                StripeFixture.ACCOUNT,
                "sk_test_wrong",
                fx.webhookSecret,
                fx.simulator.baseUrl(),
                java.net.URI.create("https://shop.example/pay"),
                StripeChannelConfig.DEFAULT_TOLERANCE,
                java.time.Duration.ofSeconds(2),
                java.time.Duration.ofSeconds(5),
                ZoneOffset.UTC),
            java.time.Clock.systemUTC());

    ChannelException e = catchThrowableOfType(ChannelException.class, () -> wrongKey.query("p-1"));

    assertThat(e.retryable()).isFalse();
  }
}

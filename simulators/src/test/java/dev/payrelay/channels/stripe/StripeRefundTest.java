package dev.payrelay.channels.stripe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.ChannelException;
import dev.payrelay.domain.channel.ChannelPaymentRequest;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.ChannelRefundRequest;
import dev.payrelay.domain.channel.ChannelRefundResult;
import dev.payrelay.domain.channel.ChannelRefundStatus;
import dev.payrelay.domain.channel.RefundReport;
import dev.payrelay.domain.channel.StatementLine;
import dev.payrelay.domain.channel.VerifiedCallback;
import dev.payrelay.simulators.RefundMode;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Refunds through StripeChannel (the official SDK) against the Stripe simulator and its faults. */
class StripeRefundTest {

  private static final Money TEN = Money.ofMinor(1000, "USD");
  private static final Money THREE = Money.ofMinor(300, "USD");

  private StripeFixture fx;

  @BeforeEach
  void start() throws Exception {
    fx = new StripeFixture(2);
  }

  @AfterEach
  void stop() {
    fx.close();
  }

  @Test
  void submit_createsOneRefund_withOurNumberAsKeyAndMetadata_reportedInChargeRefunded()
      throws Exception {
    String pi = paid("p-1");

    ChannelRefundResult result = fx.channel.refund(refund("p-1", pi, "rfn1", THREE));
    VerifiedCallback callback = fx.last().callback();

    assertThat(result.status()).isEqualTo(ChannelRefundStatus.SUCCEEDED);
    assertThat(result.channelRefundId()).startsWith("re_");
    assertThat(result.amount()).isEqualTo(THREE);
    assertThat(fx.simulator.idempotencyKeys()).endsWith("rfn1");
    assertThat(fx.simulator.sentEvents().getLast().type()).isEqualTo("charge.refunded");
    assertThat(callback.paymentId()).isEqualTo("p-1");
    assertThat(callback.channelTxnId()).isEqualTo(pi);
    assertThat(callback.status()).isEqualTo(ChannelPaymentStatus.REFUNDED);
    assertThat(callback.refunds())
        .containsExactly(
            new RefundReport(
                result.channelRefundId(), "rfn1", THREE, ChannelRefundStatus.SUCCEEDED, null));
  }

  @Test
  void resubmittingTheSameNumber_isReplayed_andRefundsNoMore() throws Exception {
    String pi = paid("p-2");

    ChannelRefundResult first = fx.channel.refund(refund("p-2", pi, "rfn2", THREE));
    int events = fx.simulator.sentEvents().size();
    ChannelRefundResult again = fx.channel.refund(refund("p-2", pi, "rfn2", THREE));

    assertThat(again).isEqualTo(first);
    assertThat(fx.simulator.sentEvents()).hasSize(events);
    assertThat(fx.channel.queryRefund("p-2", pi, "rfn2")).isEqualTo(first);
  }

  @Test
  void query_findsOurNumberAmongTheIntentsRefunds_acrossPages_orIsNotFound() throws Exception {
    String pi = paid("p-3");
    fx.channel.refund(refund("p-3", pi, "rfn3a", Money.ofMinor(100, "USD")));
    ChannelRefundResult middle =
        fx.channel.refund(refund("p-3", pi, "rfn3b", Money.ofMinor(200, "USD")));
    fx.channel.refund(refund("p-3", pi, "rfn3c", Money.ofMinor(300, "USD")));

    // The fixture's page size is 2: the oldest refund is on the second page.
    assertThat(fx.channel.queryRefund("p-3", pi, "rfn3b")).isEqualTo(middle);
    assertThat(fx.channel.queryRefund("p-3", pi, "rfn3a").amount())
        .isEqualTo(Money.ofMinor(100, "USD"));
    assertThat(fx.channel.queryRefund("p-3", pi, "rfn-never"))
        .isEqualTo(ChannelRefundResult.notFound("rfn-never"));
  }

  @Test
  void answerAfterOurReadTimeout_isRetryable_andTheQueryThenFindsTheRefundSucceeded()
      throws Exception {
    String pi = paid("p-4");
    fx.simulator.setRefundMode(pi, RefundMode.NORMAL.answeringAfter(Duration.ofMillis(1500)));

    ChannelException timedOut =
        catchThrowableOfType(
            ChannelException.class, () -> impatient().refund(refund("p-4", pi, "rfn4", THREE)));
    ChannelRefundResult queried = fx.channel.queryRefund("p-4", pi, "rfn4");

    assertThat(timedOut).isNotNull();
    assertThat(timedOut.retryable()).isTrue();
    assertThat(queried.status()).isEqualTo(ChannelRefundStatus.SUCCEEDED);
    assertThat(queried.amount()).isEqualTo(THREE);
  }

  @Test
  void reportedTwice_inChargeRefundedAndRefundUpdated_asOneRefund() throws Exception {
    String pi = paid("p-5");
    fx.simulator.setRefundMode(
        pi, RefundMode.NORMAL.callbacks(RefundMode.Callbacks.TWICE, Duration.ZERO));

    ChannelRefundResult result = fx.channel.refund(refund("p-5", pi, "rfn5", THREE));
    List<StripeFixture.Received> last = lastTwo();

    assertThat(last).extracting(r -> r.e()).containsOnlyNulls();
    VerifiedCallback charge = last.get(0).callback();
    VerifiedCallback updated = last.get(1).callback();
    assertThat(updated.notificationId()).isNotEqualTo(charge.notificationId());
    assertThat(updated.refunds()).isEqualTo(charge.refunds());
    assertThat(updated.refunds().get(0).channelRefundId()).isEqualTo(result.channelRefundId());
    assertThat(updated.status()).isEqualTo(ChannelPaymentStatus.UNKNOWN);
    assertThat(updated.paymentId()).isEqualTo("p-5");
    assertThat(updated.amount()).isEqualTo(THREE);
  }

  @Test
  void droppedWebhook_isNeverSent_andALateOneArrivesAfterItsDelay() throws Exception {
    String dropped = paid("p-6");
    String late = paid("p-7");
    fx.simulator.setRefundMode(
        dropped, RefundMode.NORMAL.callbacks(RefundMode.Callbacks.DROP, Duration.ZERO));
    fx.simulator.setRefundMode(
        late, RefundMode.NORMAL.callbacks(RefundMode.Callbacks.DELAY, Duration.ofMillis(400)));
    int before = fx.received.size();

    fx.channel.refund(refund("p-6", dropped, "rfn6", THREE));
    ChannelRefundResult lateRefund = fx.channel.refund(refund("p-7", late, "rfn7", THREE));
    int rightAfter = fx.received.size();
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (fx.received.size() == before && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }

    assertThat(rightAfter).as("nothing sent at once").isEqualTo(before);
    assertThat(fx.received).hasSize(before + 1);
    assertThat(fx.last().callback().refunds().get(0).channelRefundId())
        .isEqualTo(lateRefund.channelRefundId());
    assertThat(fx.channel.queryRefund("p-6", dropped, "rfn6").status())
        .isEqualTo(ChannelRefundStatus.SUCCEEDED);
  }

  @Test
  void dashboardRefund_isReportedWithoutOurNumber() throws Exception {
    String pi = paid("p-8");

    fx.simulator.refund(pi);
    RefundReport reported = fx.last().callback().refunds().get(0);

    assertThat(reported.refundNo()).isNull();
    assertThat(reported.channelRefundId()).startsWith("re_");
    assertThat(reported.amount()).isEqualTo(TEN);
    assertThat(reported.status()).isEqualTo(ChannelRefundStatus.SUCCEEDED);
  }

  @Test
  void failedRefund_isAnsweredFailed_andReportedInRefundFailed() throws Exception {
    String pi = paid("p-9");
    fx.simulator.setRefundMode(pi, RefundMode.NORMAL.failing());

    ChannelRefundResult result = fx.channel.refund(refund("p-9", pi, "rfn9", THREE));
    VerifiedCallback callback = fx.last().callback();

    assertThat(result.status()).isEqualTo(ChannelRefundStatus.FAILED);
    assertThat(result.failureReason()).isEqualTo("declined");
    assertThat(fx.simulator.sentEvents().getLast().type()).isEqualTo("refund.failed");
    assertThat(callback.refunds())
        .containsExactly(
            new RefundReport(
                result.channelRefundId(), "rfn9", THREE, ChannelRefundStatus.FAILED, "declined"));
    assertThat(fx.channel.queryRefund("p-9", pi, "rfn9").status())
        .isEqualTo(ChannelRefundStatus.FAILED);
  }

  @Test
  void overRefund_andRefundOfAnUnpaidIntent_areFailedOnTheirMerits() throws Exception {
    String pi = paid("p-10");
    register("p-11");
    String unpaid = fx.simulator.intentId("p-11");
    fx.channel.refund(refund("p-10", pi, "rfn10a", Money.ofMinor(800, "USD")));

    ChannelRefundResult tooMuch = fx.channel.refund(refund("p-10", pi, "rfn10b", THREE));
    ChannelRefundResult notPaid = fx.channel.refund(refund("p-11", unpaid, "rfn11", THREE));

    assertThat(tooMuch)
        .isEqualTo(
            new ChannelRefundResult(
                "rfn10b", ChannelRefundStatus.FAILED, null, null, "amount_too_large"));
    assertThat(notPaid.status()).isEqualTo(ChannelRefundStatus.FAILED);
    assertThat(notPaid.failureReason()).isEqualTo("payment_intent_unexpected_state");
  }

  @Test
  void theSameNumberWithAnotherAmount_isAnIdempotencyErrorThatIsNotRetryable() throws Exception {
    String pi = paid("p-12");
    fx.channel.refund(refund("p-12", pi, "rfn12", THREE));

    ChannelException e =
        catchThrowableOfType(
            ChannelException.class,
            () -> fx.channel.refund(refund("p-12", pi, "rfn12", Money.ofMinor(400, "USD"))));

    assertThat(e).isNotNull();
    assertThat(e.retryable()).isFalse();
  }

  @Test
  void statement_listsTheRefund_asARefundLineOfOurPayment() throws Exception {
    String pi = paid("p-13");
    ChannelRefundResult result = fx.channel.refund(refund("p-13", pi, "rfn13", THREE));

    List<StatementLine> lines = fx.channel.statement(LocalDate.now(ZoneOffset.UTC), null).lines();

    assertThat(lines)
        .contains(
            new StatementLine(
                result.channelRefundId(),
                "p-13",
                "REFUND",
                THREE,
                ChannelPaymentStatus.REFUNDED,
                lines.get(0).occurredAt(),
                "rfn13"));
  }

  /** Registers and pays {@code paymentId} for 10.00 USD; returns its PaymentIntent id. */
  private String paid(String paymentId) throws Exception {
    register(paymentId);
    String pi = fx.simulator.intentId(paymentId);
    fx.simulator.pay(pi);
    return pi;
  }

  private void register(String paymentId) throws ChannelException {
    fx.channel.register(
        new ChannelPaymentRequest(
            paymentId, StripeFixture.ACCOUNT, TEN, "course", Instant.now().plusSeconds(900)));
  }

  private List<StripeFixture.Received> lastTwo() {
    List<StripeFixture.Received> all = fx.received;
    return List.of(all.get(all.size() - 2), all.get(all.size() - 1));
  }

  /** A channel whose reads time out after 300 ms. */
  private StripeChannel impatient() {
    return new StripeChannel(
        new StripeChannelConfig(
            StripeFixture.ACCOUNT,
            fx.apiKey,
            fx.webhookSecret,
            fx.simulator.baseUrl(),
            URI.create("https://shop.example/pay"),
            StripeChannelConfig.DEFAULT_TOLERANCE,
            Duration.ofSeconds(2),
            Duration.ofMillis(300),
            ZoneOffset.UTC),
        Clock.systemUTC());
  }

  private static ChannelRefundRequest refund(
      String paymentId, String pi, String refundNo, Money amount) {
    return new ChannelRefundRequest(paymentId, pi, refundNo, amount, TEN, "course cancelled");
  }
}

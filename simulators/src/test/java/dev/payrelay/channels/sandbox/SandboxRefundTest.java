package dev.payrelay.channels.sandbox;

import static dev.payrelay.channels.sandbox.SandboxChannelIntegrationTest.payment;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.CallbackRequest;
import dev.payrelay.domain.channel.ChannelException;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.ChannelRefundRequest;
import dev.payrelay.domain.channel.ChannelRefundResult;
import dev.payrelay.domain.channel.ChannelRefundStatus;
import dev.payrelay.domain.channel.RefundReport;
import dev.payrelay.domain.channel.StatementLine;
import dev.payrelay.domain.channel.VerifiedCallback;
import dev.payrelay.simulators.RefundMode;
import dev.payrelay.simulators.sandbox.SimulatedRefund;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Refunds through SandboxChannel against a real SandboxSimulator, with its refund faults. */
class SandboxRefundTest {

  private static final Money TEN = Money.ofMinor(1000, "USD");
  private static final Money THREE = Money.ofMinor(300, "USD");

  private SandboxFixture sandbox;
  private SandboxChannel channel;

  @BeforeEach
  void start() throws Exception {
    sandbox = new SandboxFixture(Clock.systemUTC());
    channel = sandbox.channel;
  }

  @AfterEach
  void stop() {
    sandbox.close();
  }

  @Test
  void submit_refundsOnce_andTheSignedCallbackReportsIt_underTheSandboxRefundId() throws Exception {
    String txn = paid("p-1");

    ChannelRefundResult result = channel.refund(refund("p-1", txn, "rfn1", THREE));
    VerifiedCallback callback = channel.verifyCallback(nextCallback());

    assertThat(result.status()).isEqualTo(ChannelRefundStatus.SUCCEEDED);
    assertThat(result.refundNo()).isEqualTo("rfn1");
    assertThat(result.channelRefundId()).startsWith("sbr_");
    assertThat(result.amount()).isEqualTo(THREE);
    assertThat(callback.paymentId()).isEqualTo("p-1");
    assertThat(callback.channelTxnId()).isEqualTo(txn);
    assertThat(callback.status()).isEqualTo(ChannelPaymentStatus.UNKNOWN);
    assertThat(callback.refunds())
        .containsExactly(
            new RefundReport(
                result.channelRefundId(), "rfn1", THREE, ChannelRefundStatus.SUCCEEDED, null));
    assertThat(sandbox.simulator.idempotencyKeys("p-1")).contains("refund:rfn1");
  }

  @Test
  void resubmittingTheSameNumber_answersTheSameRefund_andRefundsNoMore() throws Exception {
    String txn = paid("p-2");

    ChannelRefundResult first = channel.refund(refund("p-2", txn, "rfn2", THREE));
    ChannelRefundResult again = channel.refund(refund("p-2", txn, "rfn2", THREE));

    assertThat(again).isEqualTo(first);
    assertThat(sandbox.simulator.refunds("p-2")).hasSize(1);
    assertThat(nextCallback()).isNotNull();
    assertThat(sandbox.receiver.next(300)).as("no second callback for a resubmission").isNull();
  }

  @Test
  void query_findsTheRefundByOurNumber_andIsNotFoundForANumberItNeverSaw() throws Exception {
    String txn = paid("p-3");
    ChannelRefundResult submitted = channel.refund(refund("p-3", txn, "rfn3", THREE));

    assertThat(channel.queryRefund("p-3", txn, "rfn3")).isEqualTo(submitted);
    assertThat(channel.queryRefund("p-3", txn, "rfn-never"))
        .isEqualTo(ChannelRefundResult.notFound("rfn-never"));
  }

  @Test
  void answerAfterOurTimeout_isRetryable_andTheQueryThenFindsTheRefundSucceeded() throws Exception {
    String txn = paid("p-4");
    sandbox.simulator.setRefundMode(
        "p-4", RefundMode.NORMAL.answeringAfter(Duration.ofMillis(800)));
    SandboxChannel impatient =
        sandbox.channelAt(sandbox.simulator.baseUrl(), Duration.ofMillis(200));

    ChannelException timedOut =
        catchThrowableOfType(
            ChannelException.class, () -> impatient.refund(refund("p-4", txn, "rfn4", THREE)));
    ChannelRefundResult queried = channel.queryRefund("p-4", txn, "rfn4");

    assertThat(timedOut).isNotNull();
    assertThat(timedOut.retryable()).isTrue();
    assertThat(queried.status()).isEqualTo(ChannelRefundStatus.SUCCEEDED);
    assertThat(queried.amount()).isEqualTo(THREE);
    assertThat(sandbox.simulator.refunds("p-4")).hasSize(1);
  }

  @Test
  void reportedTwice_makesTwoNotifications_ofOneRefund() throws Exception {
    String txn = paid("p-5");
    sandbox.simulator.setRefundMode(
        "p-5", RefundMode.NORMAL.callbacks(RefundMode.Callbacks.TWICE, Duration.ZERO));

    ChannelRefundResult result = channel.refund(refund("p-5", txn, "rfn5", THREE));
    VerifiedCallback first = channel.verifyCallback(nextCallback());
    VerifiedCallback second = channel.verifyCallback(nextCallback());

    assertThat(second.notificationId()).isNotEqualTo(first.notificationId());
    assertThat(first.refunds()).isEqualTo(second.refunds());
    assertThat(first.refunds().get(0).channelRefundId()).isEqualTo(result.channelRefundId());
  }

  @Test
  void droppedCallback_neverArrives_andLateOneArrivesAfterItsDelay() throws Exception {
    String dropped = paid("p-6");
    String late = paid("p-7");
    sandbox.simulator.setRefundMode(
        "p-6", RefundMode.NORMAL.callbacks(RefundMode.Callbacks.DROP, Duration.ZERO));
    Duration delay = Duration.ofMillis(500);
    sandbox.simulator.setRefundMode(
        "p-7", RefundMode.NORMAL.callbacks(RefundMode.Callbacks.DELAY, delay));

    channel.refund(refund("p-6", dropped, "rfn6", THREE));
    long before = System.nanoTime();
    ChannelRefundResult lateRefund = channel.refund(refund("p-7", late, "rfn7", THREE));
    CallbackRequest lateCallback = nextCallback();
    Duration waited = Duration.ofNanos(System.nanoTime() - before);

    assertThat(waited).isGreaterThanOrEqualTo(delay);
    assertThat(channel.verifyCallback(lateCallback).refunds().get(0).channelRefundId())
        .isEqualTo(lateRefund.channelRefundId());
    assertThat(sandbox.receiver.next(300)).as("the dropped refund's callback").isNull();
    assertThat(channel.queryRefund("p-6", dropped, "rfn6").status())
        .isEqualTo(ChannelRefundStatus.SUCCEEDED);
  }

  @Test
  void dashboardRefund_isReportedWithoutOurNumber() throws Exception {
    paid("p-8");

    SimulatedRefund made = sandbox.simulator.dashboardRefund("p-8", THREE);
    VerifiedCallback callback = channel.verifyCallback(nextCallback());

    assertThat(callback.refunds())
        .containsExactly(
            new RefundReport(made.refundId(), null, THREE, ChannelRefundStatus.SUCCEEDED, null));
  }

  @Test
  void failedRefund_isAnsweredAndReportedFailed_withTheSandboxReason() throws Exception {
    String txn = paid("p-9");
    sandbox.simulator.setRefundMode("p-9", RefundMode.NORMAL.failing());

    ChannelRefundResult result = channel.refund(refund("p-9", txn, "rfn9", THREE));
    RefundReport reported = channel.verifyCallback(nextCallback()).refunds().get(0);

    assertThat(result.status()).isEqualTo(ChannelRefundStatus.FAILED);
    assertThat(result.failureReason()).isEqualTo("simulated refund failure");
    assertThat(reported.status()).isEqualTo(ChannelRefundStatus.FAILED);
    assertThat(reported.channelRefundId()).isEqualTo(result.channelRefundId());
    assertThat(channel.queryRefund("p-9", txn, "rfn9").status())
        .isEqualTo(ChannelRefundStatus.FAILED);
  }

  @Test
  void overRefund_andRefundOfAnUnpaidPayment_areFailedOnTheirMerits_withoutARefund()
      throws Exception {
    String txn = paid("p-10");
    channel.register(payment("p-unpaid", TEN));
    channel.refund(refund("p-10", txn, "rfn10a", Money.ofMinor(800, "USD")));

    ChannelRefundResult tooMuch = channel.refund(refund("p-10", txn, "rfn10b", THREE));
    ChannelRefundResult unpaid = channel.refund(refund("p-unpaid", "sbx_none", "rfn11", THREE));

    assertThat(tooMuch.status()).isEqualTo(ChannelRefundStatus.FAILED);
    assertThat(tooMuch.channelRefundId()).isNull();
    assertThat(tooMuch.failureReason()).contains("exceeds");
    assertThat(unpaid.status()).isEqualTo(ChannelRefundStatus.FAILED);
    assertThat(unpaid.failureReason()).contains("PENDING");
    assertThat(sandbox.simulator.refunds("p-10")).hasSize(1);
  }

  @Test
  void sameNumberForAnotherAmount_andAnUnknownPayment_areNotRetryable() throws Exception {
    String txn = paid("p-12");
    channel.refund(refund("p-12", txn, "rfn12", THREE));

    ChannelException conflict =
        catchThrowableOfType(
            ChannelException.class, () -> channel.refund(refund("p-12", txn, "rfn12", TEN)));
    ChannelException unknown =
        catchThrowableOfType(
            ChannelException.class, () -> channel.refund(refund("p-none", txn, "rfn13", THREE)));

    assertThat(conflict.retryable()).isFalse();
    assertThat(conflict).hasMessageContaining("409");
    assertThat(unknown.retryable()).isFalse();
    assertThat(unknown).hasMessageContaining("404");
  }

  @Test
  void statement_listsASucceededRefund_asARefundLine() throws Exception {
    String txn = paid("p-14");
    ChannelRefundResult result = channel.refund(refund("p-14", txn, "rfn14", THREE));

    LocalDate today = LocalDate.now(ZoneOffset.UTC);
    var lines = channel.statement(today, null).lines();

    assertThat(lines)
        .filteredOn(l -> l.kind().equals("REFUND"))
        .singleElement()
        .satisfies(
            (StatementLine l) -> {
              assertThat(l.channelTxnId()).isEqualTo(result.channelRefundId());
              assertThat(l.paymentId()).isEqualTo("p-14");
              assertThat(l.amount()).isEqualTo(THREE);
              assertThat(l.status()).isEqualTo(ChannelPaymentStatus.REFUNDED);
            });
  }

  @Test
  void adminApi_setsAPaymentsRefundMode_makesADashboardRefund_andRefusesAnUnknownMode()
      throws Exception {
    String txn = paid("p-15");

    JsonNode mode =
        sandbox
            .send(
                "POST",
                "/sandbox/v1/admin/refund-mode",
                "{\"payment_id\":\"p-15\",\"callbacks\":\"DROP\",\"fail\":true}",
                200)
            .body();
    ChannelRefundResult failed = channel.refund(refund("p-15", txn, "rfn15", THREE));
    JsonNode dashboard =
        sandbox
            .send(
                "POST",
                "/sandbox/v1/admin/payments/p-15/dashboard-refund",
                "{\"amount\":\"2.00\",\"currency\":\"USD\"}",
                201)
            .body();
    JsonNode unknown =
        sandbox
            .send("POST", "/sandbox/v1/admin/refund-mode", "{\"callbacks\":\"THRICE\"}", 400)
            .body();

    assertThat(mode.get("callbacks").asText()).isEqualTo("DROP");
    assertThat(mode.get("fail").asBoolean()).isTrue();
    assertThat(failed.status()).isEqualTo(ChannelRefundStatus.FAILED);
    assertThat(dashboard.get("refund_no").isNull()).isTrue();
    assertThat(dashboard.get("status").asText()).isEqualTo("FAILED");
    assertThat(sandbox.receiver.next(300)).as("callbacks dropped by the mode").isNull();
    assertThat(unknown.get("error").asText()).contains("THRICE");
  }

  /** Registers and pays {@code paymentId} for 10.00 USD, consumes its callback, returns the txn. */
  @Test
  void pendingAnswers_sayPending_thenTheRefundShowsItsStatus_andEveryCallIsCounted()
      throws Exception {
    String txn = paid("p-20");
    sandbox.simulator.setRefundMode("p-20", RefundMode.NORMAL.pendingFor(2));

    ChannelRefundResult submitted = channel.refund(refund("p-20", txn, "rfn20", THREE));
    ChannelRefundResult firstQuery = channel.queryRefund("p-20", txn, "rfn20");
    ChannelRefundResult secondQuery = channel.queryRefund("p-20", txn, "rfn20");

    assertThat(submitted.status()).isEqualTo(ChannelRefundStatus.PENDING);
    assertThat(firstQuery.status()).isEqualTo(ChannelRefundStatus.PENDING);
    assertThat(secondQuery.status()).isEqualTo(ChannelRefundStatus.SUCCEEDED);
    assertThat(sandbox.simulator.refundCalls("rfn20").submits()).isEqualTo(1);
    assertThat(sandbox.simulator.refundCalls("rfn20").queries()).isEqualTo(2);
    assertThat(sandbox.simulator.refundCalls("rfn-never").submits()).isZero();
  }

  @Test
  void notFoundQueries_answerNoSuchRefund_thoughTheRefundWasMade() throws Exception {
    String txn = paid("p-21");
    sandbox.simulator.setRefundMode("p-21", RefundMode.NORMAL.notFoundFor(1));
    channel.refund(refund("p-21", txn, "rfn21", THREE));

    assertThat(channel.queryRefund("p-21", txn, "rfn21").status())
        .isEqualTo(ChannelRefundStatus.NOT_FOUND);
    assertThat(channel.queryRefund("p-21", txn, "rfn21").status())
        .isEqualTo(ChannelRefundStatus.SUCCEEDED);
    assertThat(sandbox.simulator.refunds("p-21")).hasSize(1);
  }

  @Test
  void lostSubmit_isRetryable_makesNoRefund_andTheResubmissionMakesOne() throws Exception {
    String txn = paid("p-22");
    sandbox.simulator.setRefundMode("p-22", RefundMode.NORMAL.losingSubmits(1));

    ChannelException lost =
        catchThrowableOfType(
            ChannelException.class, () -> channel.refund(refund("p-22", txn, "rfn22", THREE)));
    ChannelRefundResult query = channel.queryRefund("p-22", txn, "rfn22");
    ChannelRefundResult again = channel.refund(refund("p-22", txn, "rfn22", THREE));

    assertThat(lost).isNotNull();
    assertThat(lost.retryable()).isTrue();
    assertThat(query.status()).isEqualTo(ChannelRefundStatus.NOT_FOUND);
    assertThat(again.status()).isEqualTo(ChannelRefundStatus.SUCCEEDED);
    assertThat(sandbox.simulator.refunds("p-22")).hasSize(1);
    assertThat(sandbox.simulator.refundCalls("rfn22").submits()).isEqualTo(2);
  }

  private String paid(String paymentId) throws Exception {
    channel.register(payment(paymentId, TEN));
    String txn = sandbox.pay(paymentId, 200).get("channel_txn_id").asText();
    assertThat(nextCallback()).as("the pay callback of " + paymentId).isNotNull();
    return txn;
  }

  private CallbackRequest nextCallback() throws InterruptedException {
    CallbackRequest next = sandbox.receiver.next(5_000);
    assertThat(next).as("a callback").isNotNull();
    return next;
  }

  private static ChannelRefundRequest refund(
      String paymentId, String txn, String refundNo, Money amount) {
    return new ChannelRefundRequest(paymentId, txn, refundNo, amount, TEN, "course cancelled");
  }
}

package dev.payrelay.channels.wechatpay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.ChannelException;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.ChannelRefundRequest;
import dev.payrelay.domain.channel.ChannelRefundResult;
import dev.payrelay.domain.channel.ChannelRefundStatus;
import dev.payrelay.domain.channel.RefundReport;
import dev.payrelay.domain.channel.VerifiedCallback;
import dev.payrelay.simulators.refund.RefundFault;
import dev.payrelay.simulators.refund.RefundFault.Kind;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Refunds through the SDK's RefundService against the simulator: {@code POST
 * /v3/refund/domestic/refunds} once per {@code out_refund_no}, the query by that number, the
 * 退款结果通知, and the simulator's refund faults.
 */
class WechatPayRefundIntegrationTest {

  private WechatPayFixture fx;
  private String transactionId;

  @BeforeEach
  void start() throws Exception {
    fx = new WechatPayFixture();
    fx.channel.register(fx.payment("p-1", "10.00"));
    fx.simulator.pay("p-1");
    fx.receiver.next();
    transactionId = fx.simulator.transactionId("p-1").orElseThrow();
  }

  @AfterEach
  void stop() {
    fx.close();
  }

  @Test
  void refund_succeeds_andTheSameNumberAgain_isTheSameRefund_notASecondOne() throws Exception {
    ChannelRefundResult first = fx.channel.refund(request("rn-1", 300));
    ChannelRefundResult again = fx.channel.refund(request("rn-1", 300));

    assertThat(first.status()).isEqualTo(ChannelRefundStatus.SUCCEEDED);
    assertThat(first.channelRefundId()).matches("50[0-9]{27}");
    assertThat(first.amount()).isEqualTo(cny(300));
    assertThat(again).isEqualTo(first);
    assertThat(fx.channel.query("p-1").status()).isEqualTo(ChannelPaymentStatus.REFUNDED);
  }

  @Test
  void queryRefund_findsTheRefund_andANumberNeverUsed_isNotFound() throws Exception {
    ChannelRefundResult made = fx.channel.refund(request("rn-1", 250));

    assertThat(fx.channel.queryRefund("p-1", transactionId, "rn-1")).isEqualTo(made);
    assertThat(fx.channel.queryRefund("p-1", transactionId, "rn-never"))
        .isEqualTo(ChannelRefundResult.notFound("rn-never"));
  }

  @Test
  void answerAfterOurTimeout_whileTheRefundSucceeded_isRetryable_andTheQueryFindsItSucceeded()
      throws Exception {
    fx.simulator.setRefundFault("p-1", new RefundFault(Kind.ANSWER_LATE, Duration.ofMillis(1500)));
    WechatPayChannel impatient = fx.channelWithReadTimeout(Duration.ofMillis(400));

    assertThatThrownBy(() -> impatient.refund(request("rn-late", 400)))
        .isInstanceOf(ChannelException.class)
        .extracting(e -> ((ChannelException) e).retryable())
        .isEqualTo(true);
    fx.simulator.setRefundFault("p-1", RefundFault.NONE);

    ChannelRefundResult found = fx.channel.queryRefund("p-1", transactionId, "rn-late");
    assertThat(found.status()).isEqualTo(ChannelRefundStatus.SUCCEEDED);
    assertThat(found.amount()).isEqualTo(cny(400));
  }

  @Test
  void refundNotification_isAboutTheRefundOnly_andReportsItByRefundId() throws Exception {
    ChannelRefundResult made = fx.channel.refund(request("rn-1", 300));

    VerifiedCallback cb = fx.channel.verifyCallback(fx.receiver.next());

    assertThat(cb.status()).isEqualTo(ChannelPaymentStatus.UNKNOWN);
    assertThat(cb.paymentId()).isEqualTo("p-1");
    assertThat(cb.channelTxnId()).isEqualTo(transactionId);
    assertThat(cb.refunds())
        .containsExactly(
            new RefundReport(
                made.channelRefundId(), "rn-1", cny(300), ChannelRefundStatus.SUCCEEDED, null));
  }

  @Test
  void reportedTwice_underTwoNotificationIds_isOneRefund() throws Exception {
    fx.simulator.setRefundFault("p-1", RefundFault.of(Kind.REPORT_TWICE));
    fx.channel.refund(request("rn-1", 1000));

    VerifiedCallback first = fx.channel.verifyCallback(fx.receiver.next());
    VerifiedCallback second = fx.channel.verifyCallback(fx.receiver.next());

    assertThat(first.notificationId()).isNotEqualTo(second.notificationId());
    assertThat(second.refunds()).isEqualTo(first.refunds()).hasSize(1);
  }

  @Test
  void lostCallback_neverArrives_andLateCallback_arrivesAfterItsDelay() throws Exception {
    fx.simulator.setRefundFault("p-1", RefundFault.of(Kind.LOSE_CALLBACK));
    fx.channel.refund(request("rn-lost", 100));
    assertThat(fx.receiver.poll(Duration.ofMillis(500))).isNull();

    fx.simulator.setRefundFault("p-1", new RefundFault(Kind.REPORT_LATE, Duration.ofMillis(800)));
    fx.channel.refund(request("rn-late", 200));
    assertThat(fx.receiver.poll(Duration.ofMillis(300))).isNull();
    assertThat(fx.channel.verifyCallback(fx.receiver.next()).refunds())
        .extracting(RefundReport::refundNo)
        .containsExactly("rn-late");
  }

  @Test
  void refundWeNeverRequested_isReported_withTheConsolesNumber() throws Exception {
    HttpResponse<String> set =
        postFault("{\"out_trade_no\":\"p-1\",\"fault\":\"UNREQUESTED\",\"amount_fen\":500}");
    assertThat(set.statusCode()).as(set.body()).isEqualTo(200);

    VerifiedCallback cb = fx.channel.verifyCallback(fx.receiver.next());

    assertThat(cb.refunds()).hasSize(1);
    RefundReport report = cb.refunds().getFirst();
    assertThat(report.refundNo()).startsWith("console-");
    assertThat(set.body()).contains(report.refundNo());
    assertThat(report.amount()).isEqualTo(cny(500));
    assertThat(report.status()).isEqualTo(ChannelRefundStatus.SUCCEEDED);
  }

  @Test
  void failedRefund_answersPending_thenIsReportedAbnormal_andQueriesFailed() throws Exception {
    HttpResponse<String> set = postFault("{\"out_trade_no\":\"p-1\",\"fault\":\"FAIL\"}");
    assertThat(set.statusCode()).as(set.body()).isEqualTo(200);

    ChannelRefundResult accepted = fx.channel.refund(request("rn-fail", 300));
    VerifiedCallback cb = fx.channel.verifyCallback(fx.receiver.next());

    assertThat(accepted.status()).isEqualTo(ChannelRefundStatus.PENDING);
    assertThat(cb.status()).isEqualTo(ChannelPaymentStatus.UNKNOWN);
    assertThat(cb.refunds())
        .containsExactly(
            new RefundReport(
                accepted.channelRefundId(),
                "rn-fail",
                cny(300),
                ChannelRefundStatus.FAILED,
                "refund_status ABNORMAL"));
    assertThat(fx.channel.queryRefund("p-1", transactionId, "rn-fail").status())
        .isEqualTo(ChannelRefundStatus.FAILED);
    assertThat(fx.channel.query("p-1").status()).isEqualTo(ChannelPaymentStatus.PAID);
  }

  @Test
  void refundOfMoreThanIsLeft_isFailed_andTheSameNumberWithAnotherAmount_isRefusedForGood()
      throws Exception {
    fx.channel.refund(request("rn-1", 600));

    ChannelRefundResult tooMuch = fx.channel.refund(request("rn-2", 500));

    assertThat(tooMuch.status()).isEqualTo(ChannelRefundStatus.FAILED);
    assertThat(tooMuch.failureReason()).startsWith("INVALID_REQUEST");
    assertThatThrownBy(() -> fx.channel.refund(request("rn-1", 700)))
        .isInstanceOf(ChannelException.class)
        .hasMessageContaining("PARAM_ERROR")
        .extracting(e -> ((ChannelException) e).retryable())
        .isEqualTo(false);
  }

  private HttpResponse<String> postFault(String body) throws Exception {
    return fx.http.send(
        HttpRequest.newBuilder(URI.create(fx.simulator.baseUrl() + "/admin/refund-faults"))
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private ChannelRefundRequest request(String refundNo, long fen) {
    return new ChannelRefundRequest(
        "p-1", transactionId, refundNo, cny(fen), cny(1000), "course refund");
  }

  private static Money cny(long fen) {
    return Money.ofMinor(fen, "CNY");
  }
}

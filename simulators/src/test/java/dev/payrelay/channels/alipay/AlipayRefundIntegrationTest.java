package dev.payrelay.channels.alipay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.CallbackRequest;
import dev.payrelay.domain.channel.ChannelException;
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
 * Refunds through the SDK against the simulator's gateway: {@code alipay.trade.refund} once per
 * {@code out_request_no}, {@code alipay.trade.fastpay.refund.query}, the refund notifications, and
 * the simulator's refund faults.
 */
class AlipayRefundIntegrationTest {

  private AlipayFixture fx;
  private String tradeNo;

  @BeforeEach
  void start() throws Exception {
    fx = new AlipayFixture();
    fx.paidNotification("p-1", "10.00");
    tradeNo = fx.simulator.trade("p-1").orElseThrow().tradeNo();
  }

  @AfterEach
  void stop() {
    fx.close();
  }

  @Test
  void refund_succeeds_andTheSameNumberAgain_isTheSameRefund_notASecondOne() throws Exception {
    ChannelRefundResult first = fx.channel.refund(request("rn-1", 300));
    ChannelRefundResult again = fx.channel.refund(request("rn-1", 300));

    ChannelRefundResult expected =
        new ChannelRefundResult(
            "rn-1", ChannelRefundStatus.SUCCEEDED, tradeNo + ":rn-1", cny(300), null);
    assertThat(first).isEqualTo(expected);
    assertThat(again).isEqualTo(expected);
    assertThat(fx.simulator.trade("p-1").orElseThrow().refunds()).hasSize(1);
    assertThat(fx.simulator.trade("p-1").orElseThrow().refundedMinor()).isEqualTo(300);
  }

  @Test
  void queryRefund_findsTheRefund_andANumberNeverUsed_isNotFound() throws Exception {
    fx.channel.refund(request("rn-1", 250));

    assertThat(fx.channel.queryRefund("p-1", tradeNo, "rn-1"))
        .isEqualTo(
            new ChannelRefundResult(
                "rn-1", ChannelRefundStatus.SUCCEEDED, tradeNo + ":rn-1", cny(250), null));
    assertThat(fx.channel.queryRefund("p-1", tradeNo, "rn-never"))
        .isEqualTo(ChannelRefundResult.notFound("rn-never"));
  }

  @Test
  void answerAfterOurTimeout_whileTheRefundSucceeded_isRetryable_andTheQueryFindsItSucceeded()
      throws Exception {
    fx.simulator.setRefundFault("p-1", new RefundFault(Kind.ANSWER_LATE, Duration.ofMillis(1500)));
    AlipayChannel impatient = fx.channelWithReadTimeout(Duration.ofMillis(400));

    assertThatThrownBy(() -> impatient.refund(request("rn-late", 400)))
        .isInstanceOf(ChannelException.class)
        .extracting(e -> ((ChannelException) e).retryable())
        .isEqualTo(true);
    fx.simulator.setRefundFault("p-1", RefundFault.NONE);

    assertThat(fx.channel.queryRefund("p-1", tradeNo, "rn-late").status())
        .isEqualTo(ChannelRefundStatus.SUCCEEDED);
    assertThat(fx.simulator.trade("p-1").orElseThrow().refunds()).hasSize(1);
  }

  @Test
  void refundNotification_reportsTheRefund_byTradeAndOurNumber() throws Exception {
    fx.channel.refund(request("rn-1", 300));

    VerifiedCallback cb = fx.channel.verifyCallback(fx.receiver.next());

    assertThat(cb.paymentId()).isEqualTo("p-1");
    assertThat(cb.refunds())
        .containsExactly(
            new RefundReport(
                tradeNo + ":rn-1", "rn-1", cny(300), ChannelRefundStatus.SUCCEEDED, null));
  }

  @Test
  void reportedTwice_underTwoNotificationIds_isOneRefund() throws Exception {
    fx.simulator.setRefundFault("p-1", RefundFault.of(Kind.REPORT_TWICE));
    fx.channel.refund(request("rn-1", 1000));

    VerifiedCallback first = fx.channel.verifyCallback(fx.receiver.next());
    VerifiedCallback second = fx.channel.verifyCallback(fx.receiver.next());

    assertThat(first.notificationId()).isNotEqualTo(second.notificationId());
    assertThat(second.refunds()).isEqualTo(first.refunds()).hasSize(1);
    assertThat(first.refunds().getFirst().channelRefundId()).isEqualTo(tradeNo + ":rn-1");
  }

  @Test
  void lostCallback_neverArrives_andLateCallback_arrivesAfterItsDelay() throws Exception {
    fx.simulator.setRefundFault("p-1", RefundFault.of(Kind.LOSE_CALLBACK));
    fx.channel.refund(request("rn-lost", 100));
    assertThat(fx.receiver.poll(Duration.ofMillis(500))).isNull();

    fx.simulator.setRefundFault("p-1", new RefundFault(Kind.REPORT_LATE, Duration.ofMillis(800)));
    fx.channel.refund(request("rn-late", 200));
    assertThat(fx.receiver.poll(Duration.ofMillis(300))).isNull();
    CallbackRequest late = fx.receiver.next();
    assertThat(fx.channel.verifyCallback(late).refunds())
        .extracting(RefundReport::refundNo)
        .containsExactly("rn-late");
  }

  @Test
  void refundWeNeverRequested_isReported_withTheConsolesNumber() throws Exception {
    String number = fx.simulator.refundUnrequested("p-1", cny(500));

    VerifiedCallback cb = fx.channel.verifyCallback(fx.receiver.next());

    assertThat(number).startsWith("console-");
    assertThat(cb.refunds())
        .containsExactly(
            new RefundReport(
                tradeNo + ":" + number, number, cny(500), ChannelRefundStatus.SUCCEEDED, null));
  }

  @Test
  void failedRefund_isFailedWithAlipaysReason_andMovesNothing_andIsNotFoundAfter()
      throws Exception {
    setFaultThroughAdminApi("{\"out_trade_no\":\"p-1\",\"fault\":\"FAIL\"}");

    ChannelRefundResult failed = fx.channel.refund(request("rn-fail", 300));

    assertThat(failed.status()).isEqualTo(ChannelRefundStatus.FAILED);
    assertThat(failed.failureReason()).startsWith("ACQ.SELLER_BALANCE_NOT_ENOUGH");
    assertThat(fx.simulator.trade("p-1").orElseThrow().refunds()).isEmpty();
    assertThat(fx.channel.queryRefund("p-1", tradeNo, "rn-fail").status())
        .isEqualTo(ChannelRefundStatus.NOT_FOUND);
  }

  @Test
  void refundOfMoreThanIsLeft_isFailed_andTheSameNumberWithAnotherAmount_isRefusedForGood()
      throws Exception {
    fx.channel.refund(request("rn-1", 600));

    ChannelRefundResult tooMuch = fx.channel.refund(request("rn-2", 500));

    assertThat(tooMuch.status()).isEqualTo(ChannelRefundStatus.FAILED);
    assertThat(tooMuch.failureReason()).startsWith("ACQ.REFUND_AMT_NOT_EQUAL_TOTAL");
    assertThatThrownBy(() -> fx.channel.refund(request("rn-1", 700)))
        .isInstanceOf(ChannelException.class)
        .hasMessageContaining("ACQ.DISCORDANT_REPEAT_REQUEST")
        .extracting(e -> ((ChannelException) e).retryable())
        .isEqualTo(false);
  }

  @Test
  void adminApi_refusesAnUnknownFault() throws Exception {
    HttpResponse<String> answer = postFault("{\"out_trade_no\":\"p-1\",\"fault\":\"EXPLODE\"}");

    assertThat(answer.statusCode()).isEqualTo(400);
    assertThat(answer.body()).contains("EXPLODE");
  }

  private void setFaultThroughAdminApi(String body) throws Exception {
    HttpResponse<String> answer = postFault(body);
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
  }

  private HttpResponse<String> postFault(String body) throws Exception {
    return fx.http.send(
        HttpRequest.newBuilder(URI.create(fx.simulator.baseUrl() + "/admin/refund-faults"))
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private ChannelRefundRequest request(String refundNo, long fen) {
    return new ChannelRefundRequest("p-1", tradeNo, refundNo, cny(fen), cny(1000), "course refund");
  }

  private static Money cny(long fen) {
    return Money.ofMinor(fen, "CNY");
  }
}

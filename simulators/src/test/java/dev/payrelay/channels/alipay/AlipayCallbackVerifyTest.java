package dev.payrelay.channels.alipay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.CallbackOutcome;
import dev.payrelay.domain.channel.CallbackRejectedException;
import dev.payrelay.domain.channel.CallbackRejectedException.Reason;
import dev.payrelay.domain.channel.CallbackRequest;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.ChannelRefundStatus;
import dev.payrelay.domain.channel.ChannelReply;
import dev.payrelay.domain.channel.RefundReport;
import dev.payrelay.domain.channel.VerifiedCallback;
import dev.payrelay.simulators.alipay.SimulatedNotification;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class AlipayCallbackVerifyTest {

  private static final Charset GBK = Charset.forName("GBK");

  private AlipayFixture fx;

  @BeforeEach
  void start() throws Exception {
    fx = new AlipayFixture();
  }

  @AfterEach
  void stop() {
    fx.close();
  }

  @Test
  void paidNotification_fromSimulator_verifiesWithSdk_andParsesIdsMinorUnitsAndStatus()
      throws Exception {
    fx.channel.register(fx.payment("pay-1", "10.5"));
    SimulatedNotification delivery = fx.simulator.pay("pay-1");
    CallbackRequest request = fx.receiver.next();

    VerifiedCallback callback = fx.channel.verifyCallback(request);

    assertThat(callback)
        .isEqualTo(
            new VerifiedCallback(
                delivery.notifyId(),
                AlipayFixture.APP_ID,
                "pay-1",
                fx.simulator.trade("pay-1").orElseThrow().tradeNo(),
                Money.ofMinor(1050, "CNY"),
                ChannelPaymentStatus.PAID));
    assertThat(new String(request.rawBody(), StandardCharsets.US_ASCII))
        .contains("total_amount=10.50", "charset=utf-8", "sign_type=RSA2");
    assertThat(delivery.acknowledged()).as("receiver answered success").isTrue();
  }

  @Test
  void gbkNotification_isDecodedInItsDeclaredCharset_andFailsWhenDecodedAsUtf8() throws Exception {
    fx.simulator.setNotifyCharset(GBK);
    CallbackRequest request = fx.paidNotification("pay-gbk", "8.00");
    byte[] raw = request.rawBody();
    String ascii = new String(raw, StandardCharsets.US_ASCII);
    // "课" is 0xBF 0xCE in GBK (E8 AF BE in UTF-8): the subject really travels as GBK.
    assertThat(ascii).contains("charset=gbk", "subject=%BF%CE");

    assertThat(fx.channel.verifyCallback(request).amount()).isEqualTo(Money.ofMinor(800, "CNY"));

    AlipayNotifyVerifier verifier = new AlipayNotifyVerifier(AlipayFixture.ALIPAY_KEYS.publicKey());
    assertThat(verifier.verified(AlipayForm.decode(raw, GBK), GBK)).isTrue();
    assertThat(
            verifier.verified(
                AlipayForm.decode(raw, StandardCharsets.UTF_8), StandardCharsets.UTF_8))
        .as("the same bytes decoded as UTF-8")
        .isFalse();
  }

  @Test
  void oneFlippedByteInTheAmount_isBadSignature() throws Exception {
    byte[] raw = fx.paidNotification("pay-flip", "10.50").rawBody();
    int at = indexOf(raw, "total_amount=10.50") + "total_amount=10.5".length();
    raw[at] = (byte) '1';

    assertRejected(
        () -> fx.channel.verifyCallback(AlipayFixture.request(raw)), Reason.BAD_SIGNATURE);
  }

  @Test
  void oneFlippedByteInTheSignature_isBadSignature() throws Exception {
    byte[] raw = fx.paidNotification("pay-flip-sign", "10.50").rawBody();
    int at = indexOf(raw, "sign=") + "sign=".length() + 10;
    raw[at] = (byte) (raw[at] == 'A' ? 'B' : 'A');

    assertRejected(
        () -> fx.channel.verifyCallback(AlipayFixture.request(raw)), Reason.BAD_SIGNATURE);
  }

  @Test
  void reserialisedWithChangedWhitespaceInAValue_isBadSignature() throws Exception {
    String raw = ascii(fx.paidNotification("pay-ws", "10.50"));
    String changed = raw.replace("total_amount=10.50", "total_amount=+10.50");

    assertRejected(
        () ->
            fx.channel.verifyCallback(
                AlipayFixture.request(changed.getBytes(StandardCharsets.US_ASCII))),
        Reason.BAD_SIGNATURE);
  }

  /**
   * Alipay signs the decoded fields sorted by name, not the bytes: another field order or another
   * (equivalent) percent-encoding is the same notification and must verify.
   */
  @Test
  void reorderedAndReencodedBody_stillVerifies_becauseAlipaySignsDecodedSortedFields()
      throws Exception {
    CallbackRequest original = fx.paidNotification("pay-order", "10.50");
    List<String> pairs = new ArrayList<>(Arrays.asList(ascii(original).split("&")));
    Collections.reverse(pairs);
    String reordered = String.join("&", pairs).replace("+", "%20");

    VerifiedCallback callback =
        fx.channel.verifyCallback(
            AlipayFixture.request(reordered.getBytes(StandardCharsets.US_ASCII)));

    assertThat(callback).isEqualTo(fx.channel.verifyCallback(original));
  }

  @Test
  void signedWithAnotherKeyThanAlipays_isBadSignature() throws Exception {
    fx.channel.register(fx.payment("pay-key", "1.00"));
    fx.simulator.setSigningKey(AlipayFixture.APP_KEYS.privateKey());
    fx.simulator.pay("pay-key");
    CallbackRequest request = fx.receiver.next();

    assertRejected(() -> fx.channel.verifyCallback(request), Reason.BAD_SIGNATURE);
  }

  @Test
  void withoutSign_isMissingSignature_andRsa1SignType_isBadSignature() throws Exception {
    String raw = ascii(fx.paidNotification("pay-nosign", "1.00"));
    String noSign = raw.replaceAll("(^|&)sign=[^&]*", "");
    String rsa1 = raw.replace("sign_type=RSA2", "sign_type=RSA");

    assertRejected(() -> fx.channel.verifyCallback(request(noSign)), Reason.MISSING_SIGNATURE);
    assertRejected(() -> fx.channel.verifyCallback(request(rsa1)), Reason.BAD_SIGNATURE);
  }

  @Test
  void withoutOrWithUnsupportedCharset_isMalformed() throws Exception {
    String raw = ascii(fx.paidNotification("pay-cs", "1.00"));
    String noCharset = raw.replaceAll("(^|&)charset=[^&]*", "");
    String latin1 = raw.replace("charset=utf-8", "charset=iso-8859-1");

    assertRejected(() -> fx.channel.verifyCallback(request(noCharset)), Reason.MALFORMED);
    assertRejected(() -> fx.channel.verifyCallback(request(latin1)), Reason.MALFORMED);
  }

  @Test
  void signedNotificationWithMalformedAmount_isMalformed_neverRounded() throws Exception {
    for (String amount : List.of("10.505", "-1.00", "1e3", "10,50", "")) {
      Map<String, String> fields = AlipayFixture.paidFields();
      fields.put("total_amount", amount);
      byte[] body = AlipayFixture.signedBody(fields, StandardCharsets.UTF_8);

      assertRejected(
          () -> fx.channel.verifyCallback(AlipayFixture.request(body)), Reason.MALFORMED);
    }
  }

  @Test
  void signedNotificationWithUndocumentedStatus_isAcceptedAsUnknown() throws Exception {
    Map<String, String> fields = AlipayFixture.paidFields();
    fields.put("trade_status", "TRADE_PENDING_REVIEW");
    byte[] body = AlipayFixture.signedBody(fields, StandardCharsets.UTF_8);

    assertThat(fx.channel.verifyCallback(AlipayFixture.request(body)).status())
        .isEqualTo(ChannelPaymentStatus.UNKNOWN);
  }

  @Test
  void partialRefundNotification_isRefunded_withTheRefundFee_notTheOrderTotal() throws Exception {
    fx.paidNotification("pay-part", "10.00");

    fx.simulator.refund("pay-part", "r-1", Money.ofMinor(300, "CNY"));
    CallbackRequest partial = fx.receiver.next();

    assertThat(ascii(partial))
        .contains("trade_status=TRADE_SUCCESS", "refund_fee=3.00", "total_amount=10.00");
    VerifiedCallback callback = fx.channel.verifyCallback(partial);
    assertThat(callback.status()).isEqualTo(ChannelPaymentStatus.REFUNDED);
    assertThat(callback.amount()).isEqualTo(Money.ofMinor(300, "CNY"));
    assertThat(callback.paymentId()).isEqualTo("pay-part");
  }

  @Test
  void fullRefundNotification_isRefunded_withTheFullAmount() throws Exception {
    fx.paidNotification("pay-full", "10.00");

    fx.simulator.refund("pay-full", "r-1", Money.ofMinor(1000, "CNY"));
    CallbackRequest full = fx.receiver.next();

    assertThat(ascii(full)).contains("trade_status=TRADE_CLOSED", "refund_fee=10.00");
    VerifiedCallback callback = fx.channel.verifyCallback(full);
    assertThat(callback.status()).isEqualTo(ChannelPaymentStatus.REFUNDED);
    assertThat(callback.amount()).isEqualTo(Money.ofMinor(1000, "CNY"));
  }

  /** refund_fee is Alipay's total refunded so far: the rest after a partial refund is the sum. */
  @Test
  void secondRefundNotification_carriesTheTotalRefunded() throws Exception {
    fx.paidNotification("pay-refund", "10.00");

    fx.simulator.refund("pay-refund", "r-1", Money.ofMinor(300, "CNY"));
    fx.receiver.next();
    fx.simulator.refund("pay-refund", "r-2", Money.ofMinor(700, "CNY"));
    CallbackRequest rest = fx.receiver.next();

    assertThat(ascii(rest)).contains("trade_status=TRADE_CLOSED", "refund_fee=10.00");
    VerifiedCallback callback = fx.channel.verifyCallback(rest);
    assertThat(callback.status()).isEqualTo(ChannelPaymentStatus.REFUNDED);
    assertThat(callback.amount()).isEqualTo(Money.ofMinor(1000, "CNY"));
  }

  /**
   * Issue 28: Alipay's later TRADE_FINISHED repeats a partial refund's refund_fee/gmt_refund under
   * a new notify_id; both notifications report one refund, by the trade and out_biz_no.
   */
  @Test
  void tradeFinishedRepeatingAPartialRefund_underANewNotifyId_reportsTheSameRefund()
      throws Exception {
    Map<String, String> partial = AlipayFixture.paidFields();
    partial.put("refund_fee", "3.00");
    partial.put("gmt_refund", "2026-11-30 10:05:00.123");
    partial.put("out_biz_no", "rn-1");
    Map<String, String> finished = new java.util.LinkedHashMap<>(partial);
    finished.put("notify_id", "n-2");
    finished.put("trade_status", "TRADE_FINISHED");

    VerifiedCallback first =
        fx.channel.verifyCallback(
            AlipayFixture.request(AlipayFixture.signedBody(partial, StandardCharsets.UTF_8)));
    VerifiedCallback repeat =
        fx.channel.verifyCallback(
            AlipayFixture.request(AlipayFixture.signedBody(finished, StandardCharsets.UTF_8)));

    assertThat(first.notificationId()).isNotEqualTo(repeat.notificationId());
    assertThat(repeat.refunds())
        .isEqualTo(first.refunds())
        .containsExactly(
            new RefundReport(
                "2026113022001400000001:rn-1",
                "rn-1",
                Money.ofMinor(300, "CNY"),
                ChannelRefundStatus.SUCCEEDED,
                null));
  }

  @Test
  void refundNotificationWithoutOutBizNo_isNamedByItsRefundTime_withNoRefundNumber()
      throws Exception {
    Map<String, String> fields = AlipayFixture.paidFields();
    fields.put("trade_status", "TRADE_CLOSED");
    fields.put("refund_fee", "10.50");
    fields.put("gmt_refund", "2026-11-30 10:05:00.123");

    VerifiedCallback cb =
        fx.channel.verifyCallback(
            AlipayFixture.request(AlipayFixture.signedBody(fields, StandardCharsets.UTF_8)));

    assertThat(cb.refunds())
        .extracting(RefundReport::channelRefundId, RefundReport::refundNo)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "2026113022001400000001:2026-11-30 10:05:00.123", null));
  }

  @Test
  void signedRefundNotification_withGmtRefundButNoRefundFee_isMalformed() throws Exception {
    Map<String, String> fields = AlipayFixture.paidFields();
    fields.put("gmt_refund", "2026-11-30 10:05:00");

    byte[] body = AlipayFixture.signedBody(fields, StandardCharsets.UTF_8);

    assertRejected(() -> fx.channel.verifyCallback(AlipayFixture.request(body)), Reason.MALFORMED);
  }

  @Test
  void signedRefundNotification_inJpy_readsRefundFeeInWholeYen() throws Exception {
    Map<String, String> fields = AlipayFixture.paidFields();
    fields.put("trans_currency", "JPY");
    fields.put("total_amount", "1000");
    fields.put("refund_fee", "300");

    VerifiedCallback callback =
        fx.channel.verifyCallback(
            AlipayFixture.request(AlipayFixture.signedBody(fields, StandardCharsets.UTF_8)));

    assertThat(callback.status()).isEqualTo(ChannelPaymentStatus.REFUNDED);
    assertThat(callback.amount()).isEqualTo(Money.parse("300", "JPY"));
  }

  @Test
  void resentNotification_isTheSameBytes_andTheSameNotificationId() throws Exception {
    CallbackRequest first = fx.paidNotification("pay-retry", "2.00");
    fx.simulator.resend("pay-retry");
    CallbackRequest retry = fx.receiver.next();

    assertThat(retry.rawBody()).isEqualTo(first.rawBody());
    assertThat(fx.channel.verifyCallback(retry).notificationId())
        .isEqualTo(fx.channel.verifyCallback(first).notificationId());
  }

  @Test
  void claimedPaymentId_isTheUnverifiedOutTradeNo() throws Exception {
    CallbackRequest request = fx.paidNotification("pay-claim", "1.00");

    assertThat(fx.channel.claimedPaymentId(request)).contains("pay-claim");
    assertThat(fx.channel.claimedPaymentId(request("not a form"))).isEmpty();
  }

  @Test
  void signedNotificationOfAnotherNotifyType_isUnknownAboutNoPayment() throws Exception {
    // A notify_type payrelay does not handle (Alipay posts several kinds to one URL); no trade
    // fields at all.
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("notify_id", "n-other");
    fields.put("notify_type", "fund_auth_freeze");
    fields.put("notify_time", "2026-11-30 10:00:00");
    fields.put("app_id", AlipayFixture.APP_ID);
    fields.put("version", "1.0");

    VerifiedCallback callback =
        fx.channel.verifyCallback(
            AlipayFixture.request(AlipayFixture.signedBody(fields, StandardCharsets.UTF_8)));

    assertThat(callback)
        .isEqualTo(
            new VerifiedCallback(
                "n-other", AlipayFixture.APP_ID, null, null, null, ChannelPaymentStatus.UNKNOWN));
  }

  @Test
  void callbackMediaType_isTheFormEncoding() {
    assertThat(fx.channel.callbackMediaType()).isEqualTo("application/x-www-form-urlencoded");
  }

  @Test
  void reply_isPlainSuccessWhenAcknowledged_andRetryOtherwise() {
    assertThat(fx.channel.reply(CallbackOutcome.AMOUNT_MISMATCH))
        .isEqualTo(new ChannelReply(200, "text/plain; charset=utf-8", "success"));
    ChannelReply retry = fx.channel.reply(CallbackOutcome.UNKNOWN_PAYMENT);
    assertThat(retry.httpStatus()).isEqualTo(503);
    assertThat(retry.body()).isNotEqualTo("success");
  }

  @Test
  void refusal_isPlainFail_withPayrelaysStatus() {
    assertThat(fx.channel.refusal("BAD_SIGNATURE", 401, 7))
        .isEqualTo(new ChannelReply(401, "text/plain; charset=utf-8", "fail"));
  }

  private static void assertRejected(ThrowingCallable call, Reason reason) {
    assertThatThrownBy(call)
        .isInstanceOf(CallbackRejectedException.class)
        .extracting(e -> ((CallbackRejectedException) e).reason())
        .isEqualTo(reason);
  }

  private static CallbackRequest request(String ascii) {
    return AlipayFixture.request(ascii.getBytes(StandardCharsets.US_ASCII));
  }

  private static String ascii(CallbackRequest request) {
    return new String(request.rawBody(), StandardCharsets.US_ASCII);
  }

  private static int indexOf(byte[] raw, String ascii) {
    int at = new String(raw, StandardCharsets.US_ASCII).indexOf(ascii);
    assertThat(at).as("body contains %s", ascii).isNotNegative();
    return at;
  }
}

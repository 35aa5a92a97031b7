package dev.payrelay.channels.wechatpay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.domain.channel.CallbackDecision;
import dev.payrelay.domain.channel.CallbackOutcome;
import dev.payrelay.domain.channel.CallbackRejectedException;
import dev.payrelay.domain.channel.CallbackRejectedException.Reason;
import dev.payrelay.domain.channel.CallbackRequest;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.ChannelRefundStatus;
import dev.payrelay.domain.channel.ChannelReply;
import dev.payrelay.domain.channel.PaymentSnapshot;
import dev.payrelay.domain.channel.VerifiedCallback;
import dev.payrelay.simulators.RsaKeyPair;
import dev.payrelay.simulators.wechatpay.SimulatedWechatNotification;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class WechatPayCallbackVerifyTest {

  private WechatPayFixture fx;

  @BeforeEach
  void start() throws Exception {
    fx = new WechatPayFixture();
  }

  @AfterEach
  void stop() {
    fx.close();
  }

  private CallbackRequest paid(String id, String yuan) throws Exception {
    fx.channel.register(fx.payment(id, yuan));
    SimulatedWechatNotification sent = fx.simulator.pay(id);
    assertThat(sent.acknowledged()).as("receiver answered 200").isTrue();
    return fx.receiver.next();
  }

  @Test
  void paidNotification_fromSimulator_verifiesAndDecryptsWithSdk_andParsesIdsMinorUnitsAndStatus()
      throws Exception {
    CallbackRequest request = paid("pay-1", "10.5");

    VerifiedCallback callback = fx.channel.verifyCallback(request);

    assertThat(callback.merchantId()).isEqualTo(WechatPayFixture.MCH_ID);
    assertThat(callback.paymentId()).isEqualTo("pay-1");
    assertThat(callback.channelTxnId())
        .isEqualTo(fx.simulator.transactionId("pay-1").orElseThrow())
        .startsWith("4200");
    assertThat(callback.amount()).isEqualTo(Money.ofMinor(1050, "CNY"));
    assertThat(callback.status()).isEqualTo(ChannelPaymentStatus.PAID);
    assertThat(callback.notificationId()).isNotBlank();
    String body = new String(request.rawBody(), StandardCharsets.UTF_8);
    assertThat(body)
        .contains("\"AEAD_AES_256_GCM\"", "TRANSACTION.SUCCESS")
        .doesNotContain("pay-1");
    assertThat(request.header("Wechatpay-Serial")).contains(WechatPayFixture.PUB_KEY_ID);
    assertThat(request.rawBody())
        .as("signed over UTF-8 bytes, non-ASCII summary included")
        .containsSubsequence("支付成功".getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void bodyTranscodedToGbk_isMalformed_notReadInAnotherCharset() throws Exception {
    CallbackRequest request = paid("pay-gbk", "3.00");
    byte[] gbk =
        new String(request.rawBody(), StandardCharsets.UTF_8).getBytes(Charset.forName("GBK"));

    assertRejected(() -> fx.channel.verifyCallback(withBody(request, gbk)), Reason.MALFORMED);
  }

  @Test
  void otherSignatureType_isBadSignature() throws Exception {
    CallbackRequest request = paid("pay-st", "3.00");
    Map<String, String> headers = new HashMap<>(request.headers());
    headers.keySet().removeIf(k -> k.equalsIgnoreCase("Wechatpay-Signature-Type"));
    headers.put("Wechatpay-Signature-Type", "WECHATPAY2-SM2-WITH-SM3");

    assertRejected(
        () ->
            fx.channel.verifyCallback(
                new CallbackRequest(headers, request.rawBody(), request.receivedAt())),
        Reason.BAD_SIGNATURE);
  }

  @Test
  void retriedNotification_verifiesAgain_withTheSameId() throws Exception {
    VerifiedCallback first = fx.channel.verifyCallback(paid("pay-r", "1.00"));
    fx.simulator.resend("pay-r");
    assertThat(fx.channel.verifyCallback(fx.receiver.next())).isEqualTo(first);
  }

  @Test
  void refundNotification_isAboutTheRefundOnly_withTheRefundedFen() throws Exception {
    fx.channel.verifyCallback(paid("pay-rf", "20.00"));
    fx.simulator.refund("pay-rf", "rf-1", 500);

    VerifiedCallback refund = fx.channel.verifyCallback(fx.receiver.next());

    assertThat(refund.status()).isEqualTo(ChannelPaymentStatus.UNKNOWN);
    assertThat(refund.paymentId()).isEqualTo("pay-rf");
    assertThat(refund.amount()).isEqualTo(Money.ofMinor(500, "CNY"));
    assertThat(refund.refunds())
        .extracting(r -> r.refundNo(), r -> r.amount(), r -> r.status())
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "rf-1", Money.ofMinor(500, "CNY"), ChannelRefundStatus.SUCCEEDED));
  }

  /**
   * 退款结果通知 with refund_status ABNORMAL / CLOSED: no money went back, so the refund's 5.00 must not
   * read as a payment of a paid 20.00 order (which would be an AMOUNT_MISMATCH exception).
   */
  @Test
  void failedOrClosedRefundNotification_isUnknown_andOnlyAcknowledgedForAPaidPayment()
      throws Exception {
    PaymentSnapshot ours =
        new PaymentSnapshot(
            "p-1",
            WechatPayFixture.MCH_ID,
            Money.ofMinor(2000, "CNY"),
            PaymentStatus.PAID,
            "4200000000000000000000000001");
    for (String refundStatus : new String[] {"ABNORMAL", "CLOSED"}) {
      SimulatedWechatNotification n =
          fx.simulator.signedNotification(
              "REFUND." + refundStatus, "refund", refundResource(refundStatus, 500));

      VerifiedCallback cb = fx.channel.verifyCallback(WechatPayFixture.request(n));

      assertThat(cb.status()).as(refundStatus).isEqualTo(ChannelPaymentStatus.UNKNOWN);
      assertThat(cb.paymentId()).isEqualTo("p-1");
      assertThat(cb.refunds())
          .as(refundStatus)
          .extracting(r -> r.channelRefundId(), r -> r.status())
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple(
                  "50000000382019052709732678859", ChannelRefundStatus.FAILED));
      assertThat(CallbackDecision.decide(ours, cb))
          .as(refundStatus)
          .isEqualTo(CallbackOutcome.STALE_STATUS);
    }
  }

  @Test
  void oneFlippedByte_isBadSignature() throws Exception {
    CallbackRequest request = paid("pay-2", "3.00");
    byte[] body = request.rawBody();
    int at = new String(body, StandardCharsets.UTF_8).indexOf("encrypt-resource");
    body[at] = (byte) 'E';

    assertRejected(() -> fx.channel.verifyCallback(withBody(request, body)), Reason.BAD_SIGNATURE);
  }

  @Test
  void reserialisedBody_sameJsonOtherWhitespaceAndKeyOrder_isBadSignature() throws Exception {
    CallbackRequest request = paid("pay-3", "3.00");
    ObjectMapper json = new ObjectMapper();
    ObjectNode tree = (ObjectNode) json.readTree(request.rawBody());
    ObjectNode reordered = json.createObjectNode();
    reordered.set("resource", tree.get("resource"));
    tree.fieldNames().forEachRemaining(n -> reordered.set(n, tree.get(n)));
    byte[] body = json.writerWithDefaultPrettyPrinter().writeValueAsBytes(reordered);
    assertThat(json.readTree(body)).isEqualTo(tree);

    assertRejected(() -> fx.channel.verifyCallback(withBody(request, body)), Reason.BAD_SIGNATURE);
  }

  @Test
  void timestampMoreThanFiveMinutesFromReceipt_isStale_bothWays() throws Exception {
    CallbackRequest request = paid("pay-4", "3.00");
    Instant sent =
        Instant.ofEpochSecond(Long.parseLong(request.header("Wechatpay-Timestamp").orElseThrow()));

    assertRejected(
        () -> fx.channel.verifyCallback(receivedAt(request, sent.plus(Duration.ofSeconds(301)))),
        Reason.STALE_TIMESTAMP);
    assertRejected(
        () -> fx.channel.verifyCallback(receivedAt(request, sent.minus(Duration.ofSeconds(301)))),
        Reason.STALE_TIMESTAMP);
    assertThat(
            fx.channel
                .verifyCallback(receivedAt(request, sent.plus(Duration.ofSeconds(299))))
                .status())
        .isEqualTo(ChannelPaymentStatus.PAID);
  }

  @Test
  void unknownWechatpaySerial_isBadSignature_evenWhenSignedByTheKnownKey() throws Exception {
    String unknown = "PUB_KEY_ID_0119000000012026113000000000000999";
    fx.channel.register(fx.payment("pay-5", "3.00"));
    fx.simulator.setSigningKey(WechatPayFixture.PLATFORM_KEYS.privateKey(), unknown);
    fx.simulator.pay("pay-5");
    CallbackRequest request = fx.receiver.next();
    assertThat(request.header("Wechatpay-Serial")).contains(unknown);

    assertRejected(() -> fx.channel.verifyCallback(request), Reason.BAD_SIGNATURE);
  }

  @Test
  void otherPlatformKey_underTheKnownSerial_isBadSignature() throws Exception {
    fx.channel.register(fx.payment("pay-6", "3.00"));
    fx.simulator.setSigningKey(RsaKeyPair.generate().privateKey(), WechatPayFixture.PUB_KEY_ID);
    fx.simulator.pay("pay-6");

    assertRejected(() -> fx.channel.verifyCallback(fx.receiver.next()), Reason.BAD_SIGNATURE);
  }

  /**
   * Signature fine, resource encrypted under another APIv3 key: the AES-GCM tag does not verify, an
   * authentication failure, so BAD_SIGNATURE (401) rather than MALFORMED.
   */
  @Test
  void resourceEncryptedWithAnotherApiV3Key_isBadSignature() throws Exception {
    fx.channel.register(fx.payment("pay-7", "3.00"));
    fx.simulator.setApiV3Key("ZZZZZZZZZZabcdefghijABCDEFGHIJ01");
    fx.simulator.pay("pay-7");

    assertRejected(() -> fx.channel.verifyCallback(fx.receiver.next()), Reason.BAD_SIGNATURE);
  }

  @Test
  void missingSignatureHeaders_areMissingSignature() throws Exception {
    CallbackRequest request = paid("pay-8", "3.00");
    for (String h :
        new String[] {
          "Wechatpay-Signature", "Wechatpay-Timestamp", "Wechatpay-Nonce", "Wechatpay-Serial"
        }) {
      Map<String, String> headers = new HashMap<>(request.headers());
      headers.keySet().removeIf(k -> k.equalsIgnoreCase(h));
      assertRejected(
          () ->
              fx.channel.verifyCallback(
                  new CallbackRequest(headers, request.rawBody(), request.receivedAt())),
          Reason.MISSING_SIGNATURE);
    }
  }

  @Test
  void signedResourceWithNonIntegerOrNegativeOrMissingAmount_isMalformed() throws Exception {
    for (String total : new String[] {"10.5", "-1", "1050.0", "1e3", "\"1050\""}) {
      SimulatedWechatNotification n =
          fx.simulator.signedNotification(
              "TRANSACTION.SUCCESS",
              "transaction",
              resource("\"amount\":{\"total\":" + total + ",\"currency\":\"CNY\"},"));
      assertRejected(
          () -> fx.channel.verifyCallback(WechatPayFixture.request(n)), Reason.MALFORMED);
    }
    SimulatedWechatNotification noAmount =
        fx.simulator.signedNotification("TRANSACTION.SUCCESS", "transaction", resource(""));
    assertRejected(
        () -> fx.channel.verifyCallback(WechatPayFixture.request(noAmount)), Reason.MALFORMED);
  }

  @Test
  void signedResourceInJpy_keepsWholeYen() throws Exception {
    SimulatedWechatNotification n =
        fx.simulator.signedNotification(
            "TRANSACTION.SUCCESS",
            "transaction",
            resource("\"amount\":{\"total\":500,\"currency\":\"JPY\"},"));
    assertThat(fx.channel.verifyCallback(WechatPayFixture.request(n)).amount())
        .isEqualTo(Money.parse("500", "JPY"));
  }

  @Test
  void undocumentedTradeStateOrEventType_isUnknown_notARejection() throws Exception {
    SimulatedWechatNotification n =
        fx.simulator.signedNotification(
            "TRANSACTION.SUCCESS",
            "transaction",
            resource("\"amount\":{\"total\":100,\"currency\":\"CNY\"},")
                .replace("\"SUCCESS\"", "\"SOMETHING_NEW\""));
    assertThat(fx.channel.verifyCallback(WechatPayFixture.request(n)).status())
        .isEqualTo(ChannelPaymentStatus.UNKNOWN);

    SimulatedWechatNotification other =
        fx.simulator.signedNotification("MARKETING.NEW", "coupon", "{\"mchid\":\"1900000001\"}");
    VerifiedCallback cb = fx.channel.verifyCallback(WechatPayFixture.request(other));
    assertThat(cb.status()).isEqualTo(ChannelPaymentStatus.UNKNOWN);
    assertThat(cb.paymentId()).isNull();
  }

  /**
   * The SDK's own message quotes the whole signed message, unverified body and line breaks
   * included; the refusal names the reason and the configured key instead, so what a caller sent
   * never lands in the inbox's detail or a log line as payrelay's words.
   */
  @Test
  void refusalDetail_namesReasonAndKey_withoutEchoingTheUnverifiedBody() throws Exception {
    CallbackRequest request = paid("pay-20", "3.00");
    byte[] flipped = request.rawBody();
    flipped[new String(flipped, StandardCharsets.UTF_8).indexOf(".SUCCESS") + 1] ^= 0x01;
    String unknown = "PUB_KEY_ID_0119000000012026113000000000000999";

    assertThat(refusal(withBody(request, flipped)))
        .isEqualTo(
            "Wechatpay-Signature does not verify over timestamp, nonce and body with WeChat Pay"
                + " public key "
                + WechatPayFixture.PUB_KEY_ID);
    assertThat(refusal(withHeader(request, "Wechatpay-Serial", unknown)))
        .isEqualTo(
            "Wechatpay-Serial "
                + unknown
                + " is not the configured WeChat Pay public key id "
                + WechatPayFixture.PUB_KEY_ID);
    assertThat(refusal(withHeader(request, "Wechatpay-Serial", "x\ty ciphertext")))
        .startsWith("Wechatpay-Serial (not a key id) is not")
        .doesNotContain("ciphertext");
    assertThat(refusal(withHeader(request, "Wechatpay-Signature-Type", "WECHATPAY2-SM2-WITH-SM3")))
        .isEqualTo("Wechatpay-Signature-Type is not WECHATPAY2-SHA256-RSA2048");
  }

  @Test
  void reply_is200SuccessWhenAcknowledged_and5xxFailToRetry() {
    assertThat(fx.channel.reply(CallbackOutcome.CONFIRMED).httpStatus()).isEqualTo(200);
    assertThat(fx.channel.reply(CallbackOutcome.CONFIRMED).body()).contains("\"SUCCESS\"");
    assertThat(fx.channel.reply(CallbackOutcome.AMOUNT_MISMATCH).httpStatus()).isEqualTo(200);
    assertThat(fx.channel.reply(CallbackOutcome.UNKNOWN_PAYMENT).httpStatus()).isEqualTo(503);
    assertThat(fx.channel.reply(CallbackOutcome.UNKNOWN_PAYMENT).body()).contains("\"FAIL\"");
  }

  @Test
  void refusal_isWechatsFailJson_withPayrelaysStatus_andTheInboxRow() {
    ChannelReply refused = fx.channel.refusal("BAD_SIGNATURE", 401, 42);
    assertThat(refused.httpStatus()).isEqualTo(401);
    assertThat(refused.contentType()).startsWith("application/json");
    assertThat(refused.body())
        .isEqualTo("{\"code\":\"FAIL\",\"message\":\"BAD_SIGNATURE (inbox 42)\"}");
  }

  private static String resource(String amount) {
    return "{\"mchid\":\"1900000001\",\"appid\":\"wx8888888888888888\",\"out_trade_no\":\"p-1\","
        + "\"transaction_id\":\"4200000000000000000000000001\","
        + amount
        + "\"trade_state\":\"SUCCESS\"}";
  }

  /** A 退款结果通知 resource as WeChat Pay documents it, refund of {@code fen} of a 20.00 order. */
  private static String refundResource(String refundStatus, long fen) {
    return "{\"mchid\":\"1900000001\",\"out_trade_no\":\"p-1\","
        + "\"transaction_id\":\"4200000000000000000000000001\","
        + "\"out_refund_no\":\"rf-1\",\"refund_id\":\"50000000382019052709732678859\","
        + "\"refund_status\":\""
        + refundStatus
        + "\",\"user_received_account\":\"支付用户零钱\","
        + "\"amount\":{\"total\":2000,\"refund\":"
        + fen
        + ",\"payer_total\":2000,\"payer_refund\":"
        + fen
        + "}}";
  }

  private static CallbackRequest withBody(CallbackRequest r, byte[] body) {
    return new CallbackRequest(r.headers(), body, r.receivedAt());
  }

  private static CallbackRequest withHeader(CallbackRequest r, String name, String value) {
    Map<String, String> headers = new HashMap<>(r.headers());
    headers.keySet().removeIf(k -> k.equalsIgnoreCase(name));
    headers.put(name, value);
    return new CallbackRequest(headers, r.rawBody(), r.receivedAt());
  }

  /** The detail of the BAD_SIGNATURE refusal of {@code request}. */
  private String refusal(CallbackRequest request) {
    CallbackRejectedException e =
        catchThrowableOfType(
            () -> fx.channel.verifyCallback(request), CallbackRejectedException.class);
    assertThat(e.reason()).isEqualTo(Reason.BAD_SIGNATURE);
    return e.getMessage();
  }

  private static CallbackRequest receivedAt(CallbackRequest r, Instant at) {
    return new CallbackRequest(r.headers(), r.rawBody(), at);
  }

  private static void assertRejected(ThrowingCallable call, Reason reason) {
    assertThatThrownBy(call)
        .isInstanceOf(CallbackRejectedException.class)
        .extracting(e -> ((CallbackRejectedException) e).reason())
        .isEqualTo(reason);
  }
}

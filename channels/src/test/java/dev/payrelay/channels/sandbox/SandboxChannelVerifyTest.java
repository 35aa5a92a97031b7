package dev.payrelay.channels.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

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
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class SandboxChannelVerifyTest {

  private static final Instant NOW = Instant.parse("2026-01-15T10:00:00Z");
  private static final String SECRET = "whsec_verify";

  private final Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
  private final SandboxSignature signer =
      new SandboxSignature(SECRET, SandboxSignature.DEFAULT_TOLERANCE, clock);
  private final SandboxChannel channel =
      new SandboxChannel(
          new SandboxChannelConfig(
              URI.create("http://127.0.0.1:1"),
              "m-1",
              SECRET,
              URI.create("http://127.0.0.1:2/v1/webhooks/sandbox"),
              SandboxSignature.DEFAULT_TOLERANCE,
              Duration.ofSeconds(1)),
          clock,
          HttpClient.newHttpClient());

  @Test
  void signedNotification_isVerifiedIntoItsFacts_inMinorUnits() throws Exception {
    VerifiedCallback callback =
        channel.verifyCallback(signed(notification("10.50", "USD", "PAID")));

    assertThat(callback)
        .isEqualTo(
            new VerifiedCallback(
                "ntf_1",
                "m-1",
                "p-1",
                "sbx_1",
                Money.ofMinor(1050, "USD"),
                ChannelPaymentStatus.PAID));
  }

  @Test
  void zeroExponentCurrency_isParsedWithoutDecimals() throws Exception {
    VerifiedCallback callback = channel.verifyCallback(signed(notification("500", "JPY", "PAID")));

    assertThat(callback.amount()).isEqualTo(Money.ofMinor(500, "JPY"));
  }

  @Test
  void signedButNotJson_isMalformed() {
    assertThat(reasonFor(signed("{\"payment_id\":".getBytes(StandardCharsets.UTF_8))))
        .isEqualTo(Reason.MALFORMED);
  }

  @Test
  void amountWithMoreDecimalsThanTheCurrencyAllows_isMalformed() {
    CallbackRejectedException e = rejection(signed(notification("10.505", "USD", "PAID")));

    assertThat(e.reason()).isEqualTo(Reason.MALFORMED);
    assertThat(e).hasMessageContaining("10.505");
  }

  @Test
  void documentedMoneyMovingStatuses_parse_andAnUnknownStatusIsUnknown_notARejection()
      throws Exception {
    assertThat(channel.verifyCallback(signed(notification("10.50", "USD", "REFUNDED"))).status())
        .isEqualTo(ChannelPaymentStatus.REFUNDED);
    assertThat(channel.verifyCallback(signed(notification("10.50", "USD", "DISPUTED"))).status())
        .isEqualTo(ChannelPaymentStatus.DISPUTED);
    assertThat(channel.verifyCallback(signed(notification("10.50", "USD", "REVERSED"))).status())
        .isEqualTo(ChannelPaymentStatus.UNKNOWN);
  }

  @Test
  void unknownCurrency_isMalformed() {
    assertThat(reasonFor(signed(notification("10.50", "ZZZ", "PAID")))).isEqualTo(Reason.MALFORMED);
  }

  @Test
  void missingField_isMalformed_namingTheField() {
    byte[] body =
        new SandboxNotification("ntf_1", "m-1", "p-1", null, "10.50", "USD", "PAID", NOW).toJson();

    CallbackRejectedException e = rejection(signed(body));

    assertThat(e.reason()).isEqualTo(Reason.MALFORMED);
    assertThat(e).hasMessageContaining("channel_txn_id");
  }

  @Test
  void paidAtThatIsNotIso8601_isMalformed() {
    byte[] body =
        new String(notification("10.50", "USD", "PAID"), StandardCharsets.UTF_8)
            .replace(NOW.toString(), "15/01/2026")
            .getBytes(StandardCharsets.UTF_8);

    assertThat(reasonFor(signed(body))).isEqualTo(Reason.MALFORMED);
  }

  @Test
  void malformedBodyWithBadSignature_isBadSignature_notParsed() {
    CallbackRequest request = signed("not json".getBytes(StandardCharsets.UTF_8));
    CallbackRequest tampered =
        new CallbackRequest(request.headers(), "not jsoN".getBytes(StandardCharsets.UTF_8), NOW);

    assertThat(reasonFor(tampered)).isEqualTo(Reason.BAD_SIGNATURE);
  }

  @Test
  void reply_acknowledgedOutcome_isSuccess200_andUnknownPayment_isRetry503() {
    ChannelReply duplicate = channel.reply(CallbackOutcome.DUPLICATE);
    ChannelReply unknown = channel.reply(CallbackOutcome.UNKNOWN_PAYMENT);

    assertThat(duplicate)
        .isEqualTo(
            new ChannelReply(
                200, "application/json", "{\"code\":\"SUCCESS\",\"message\":\"DUPLICATE\"}"));
    assertThat(unknown)
        .isEqualTo(
            new ChannelReply(
                503, "application/json", "{\"code\":\"RETRY\",\"message\":\"UNKNOWN_PAYMENT\"}"));
  }

  @Test
  void signedRefundNotification_reportsItsRefund_onACallbackAboutRefundsOnly() throws Exception {
    VerifiedCallback callback =
        channel.verifyCallback(signed(refundNotification("rfn1", "3.00", "SUCCEEDED", "refund")));

    assertThat(callback)
        .isEqualTo(
            new VerifiedCallback(
                "ntf_2",
                "m-1",
                "p-1",
                "sbx_1",
                Money.ofMinor(300, "USD"),
                ChannelPaymentStatus.UNKNOWN,
                List.of(
                    new RefundReport(
                        "sbr_1",
                        "rfn1",
                        Money.ofMinor(300, "USD"),
                        ChannelRefundStatus.SUCCEEDED,
                        null))));
  }

  @Test
  void refundNotification_withAnUnknownStatusReadsPending_andWithoutOurNumberIsADashboardRefund()
      throws Exception {
    RefundReport report =
        channel
            .verifyCallback(signed(refundNotification(null, "3.00", "REVERSED", "refund")))
            .refunds()
            .get(0);

    assertThat(report.status()).isEqualTo(ChannelRefundStatus.PENDING);
    assertThat(report.refundNo()).isNull();
  }

  @Test
  void refundNotification_ofAnotherType_orWithTooManyDecimals_isMalformed() {
    assertThat(reasonFor(signed(refundNotification("rfn1", "3.00", "SUCCEEDED", "chargeback"))))
        .isEqualTo(Reason.MALFORMED);
    assertThat(reasonFor(signed(refundNotification("rfn1", "3.005", "SUCCEEDED", "refund"))))
        .isEqualTo(Reason.MALFORMED);
  }

  @Test
  void name_isSandbox() {
    assertThat(channel.name()).isEqualTo("sandbox");
  }

  private static byte[] notification(String amount, String currency, String status) {
    return new SandboxNotification("ntf_1", "m-1", "p-1", "sbx_1", amount, currency, status, NOW)
        .toJson();
  }

  private static byte[] refundNotification(
      String refundNo, String amount, String status, String type) {
    byte[] json =
        new SandboxRefundNotification(
                "ntf_2", "m-1", "p-1", "sbx_1", "sbr_1", refundNo, amount, "USD", status, null, NOW)
            .toJson();
    String text = new String(json, StandardCharsets.UTF_8);
    return text.replace("\"type\":\"refund\"", "\"type\":\"" + type + "\"")
        .getBytes(StandardCharsets.UTF_8);
  }

  private CallbackRequest signed(byte[] body) {
    return new CallbackRequest(signer.headersFor(body), body, NOW);
  }

  private Reason reasonFor(CallbackRequest request) {
    return rejection(request).reason();
  }

  private CallbackRejectedException rejection(CallbackRequest request) {
    CallbackRejectedException e =
        catchThrowableOfType(
            CallbackRejectedException.class, () -> channel.verifyCallback(request));
    assertThat(e).as("expected a rejection").isNotNull();
    return e;
  }
}

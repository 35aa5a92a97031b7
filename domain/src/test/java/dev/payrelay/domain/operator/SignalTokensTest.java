package dev.payrelay.domain.operator;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class SignalTokensTest {

  private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");
  private static final byte[] SECRET =
      "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8);

  private final SignalTokens tokens = at(NOW);

  private static SignalTokens at(Instant now) {
    return new SignalTokens(SECRET, Duration.ofMinutes(15), Clock.fixed(now, ZoneOffset.UTC));
  }

  private String acceptA() {
    return tokens.sign(tokens.grant("payment-pay_a", "ACCEPT_AS_PAID", "pay_a", "alice", "ops1"));
  }

  @Test
  void aTokenForItsWorkflowActionAndTarget_isVerified_withTheSignersIdentity() {
    SignalVerdict verdict = tokens.verify(acceptA(), "payment-pay_a", "ACCEPT_AS_PAID", "pay_a");

    assertThat(verdict.refusal()).isNull();
    assertThat(verdict.grant().operator()).isEqualTo("alice");
    assertThat(verdict.grant().keyId()).isEqualTo("ops1");
    assertThat(verdict.grant().expiresAt()).isEqualTo(NOW.plus(Duration.ofMinutes(15)));
  }

  @Test
  void aTokenSignedForPaymentA_isRefusedOnPaymentB() {
    SignalVerdict verdict = tokens.verify(acceptA(), "payment-pay_b", "ACCEPT_AS_PAID", "pay_b");

    assertThat(verdict.verified()).isFalse();
    assertThat(verdict.refusal())
        .isEqualTo(
            "token signed for workflow payment-pay_a, not payment-pay_b, for target pay_a, not"
                + " pay_b");
  }

  @Test
  void aTokenForAnotherAction_isRefused() {
    SignalVerdict verdict = tokens.verify(acceptA(), "payment-pay_a", "CLOSE", "pay_a");

    assertThat(verdict.refusal()).isEqualTo("token signed for action ACCEPT_AS_PAID, not CLOSE");
  }

  @Test
  void anExpiredToken_isRefused_andOneAtItsLastSecond_isNot() {
    String token = acceptA();
    Instant expiry = NOW.plus(Duration.ofMinutes(15));

    assertThat(at(expiry).verify(token, "payment-pay_a", "ACCEPT_AS_PAID", "pay_a").verified())
        .isTrue();
    assertThat(
            at(expiry.plusSeconds(1))
                .verify(token, "payment-pay_a", "ACCEPT_AS_PAID", "pay_a")
                .refusal())
        .isEqualTo("token expired at " + expiry);
  }

  @Test
  void aTokenWhoseActionWasEdited_isRefused_asAltered() {
    String[] parts = acceptA().substring(SignalTokens.PREFIX.length()).split("\\.");
    String fields = new String(Base64.getUrlDecoder().decode(parts[0]), StandardCharsets.UTF_8);
    String edited =
        Base64.getUrlEncoder()
            .withoutPadding()
            .encodeToString(
                fields.replace("ACCEPT_AS_PAID", "CLOSE").getBytes(StandardCharsets.UTF_8));

    SignalVerdict verdict =
        tokens.verify(
            SignalTokens.PREFIX + edited + "." + parts[1], "payment-pay_a", "CLOSE", "pay_a");

    assertThat(verdict.refusal())
        .isEqualTo("token signature does not match (altered, or another secret)");
  }

  @Test
  void aTokenSignedWithAnotherSecret_isRefused() {
    SignalTokens other =
        new SignalTokens(
            "another-secret-another-secret-xx".getBytes(StandardCharsets.UTF_8),
            Duration.ofMinutes(15),
            Clock.fixed(NOW, ZoneOffset.UTC));
    String forged =
        other.sign(other.grant("payment-pay_a", "ACCEPT_AS_PAID", "pay_a", "mallory", "x"));

    assertThat(tokens.verify(forged, "payment-pay_a", "ACCEPT_AS_PAID", "pay_a").verified())
        .isFalse();
  }

  @Test
  void noTokenOrGarbage_isRefused_withoutAnException() {
    assertThat(tokens.verify(null, "payment-pay_a", "ACCEPT_AS_PAID", "pay_a").refusal())
        .isEqualTo("no token");
    assertThat(tokens.verify("pst1.%%%.***", "payment-pay_a", "ACCEPT_AS_PAID", "pay_a").verified())
        .isFalse();
    assertThat(tokens.verify("hello", "payment-pay_a", "ACCEPT_AS_PAID", "pay_a").refusal())
        .isEqualTo("token is not pst1.<fields>.<mac>");
  }
}

package dev.payrelay.channels.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.payrelay.domain.channel.CallbackRejectedException;
import dev.payrelay.domain.channel.CallbackRejectedException.Reason;
import dev.payrelay.domain.channel.CallbackRequest;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SandboxSignatureTest {

  private static final Instant NOW = Instant.parse("2026-01-15T10:00:00Z");
  private static final String SECRET = "whsec_test";
  private static final byte[] BODY =
      "{\"payment_id\":\"p-1\",\"amount\":\"10.50\",\"currency\":\"USD\"}"
          .getBytes(StandardCharsets.UTF_8);

  /** {@code printf '1.{}' | openssl dgst -sha256 -hmac key}. */
  private static final String OPENSSL_HMAC_KEY_1_DOT_BRACES =
      "1ba6b8171186efc613e8bcc0cbdab2748f24984d7c5a84faa2637afa0e40d224";

  private final SandboxSignature verifier = signatureAt(NOW);

  @Test
  void signedBody_verifies() {
    Map<String, String> headers = verifier.headersFor(BODY);

    assertThatCode(() -> verifier.verify(request(headers, BODY))).doesNotThrowAnyException();
    assertThat(headers.get(SandboxSignature.TIMESTAMP_HEADER))
        .isEqualTo(Long.toString(NOW.getEpochSecond()));
    assertThat(headers.get(SandboxSignature.SIGNATURE_HEADER)).matches("v1=[0-9a-f]{64}");
  }

  @Test
  void signature_isHmacSha256OfTimestampDotBody_inLowercaseHex() {
    // An independent oracle: the expected value was computed with openssl, not with this code.
    SandboxSignature signer = new SandboxSignature("key", Duration.ZERO, Clock.systemUTC());

    assertThat(signer.sign("1", "{}".getBytes(StandardCharsets.UTF_8)))
        .isEqualTo("v1=" + OPENSSL_HMAC_KEY_1_DOT_BRACES);
  }

  @Test
  void oneTamperedByte_isBadSignature() {
    Map<String, String> headers = verifier.headersFor(BODY);
    byte[] tampered = BODY.clone();
    tampered[tampered.length - 4] ^= 0x01;

    assertThat(reasonFor(headers, tampered)).isEqualTo(Reason.BAD_SIGNATURE);
  }

  @Test
  void sameJsonReserialisedWithOtherWhitespaceAndKeyOrder_isBadSignature() {
    Map<String, String> headers = verifier.headersFor(BODY);
    byte[] reserialised =
        "{ \"currency\": \"USD\", \"amount\": \"10.50\", \"payment_id\": \"p-1\" }"
            .getBytes(StandardCharsets.UTF_8);

    assertThat(reasonFor(headers, reserialised)).isEqualTo(Reason.BAD_SIGNATURE);
  }

  @Test
  void signatureWithoutSchemePrefix_isBadSignature() {
    Map<String, String> headers = new HashMap<>(verifier.headersFor(BODY));
    headers.computeIfPresent(SandboxSignature.SIGNATURE_HEADER, (k, v) -> v.substring(3));

    assertThat(reasonFor(headers, BODY)).isEqualTo(Reason.BAD_SIGNATURE);
  }

  @Test
  void wrongSecret_isBadSignature() {
    Map<String, String> headers =
        new SandboxSignature("other", Duration.ofMinutes(5), fixed(NOW)).headersFor(BODY);

    assertThat(reasonFor(headers, BODY)).isEqualTo(Reason.BAD_SIGNATURE);
  }

  @Test
  void timestampSixMinutesOld_isStale() {
    Map<String, String> headers = signatureAt(NOW.minus(Duration.ofMinutes(6))).headersFor(BODY);

    assertThat(reasonFor(headers, BODY)).isEqualTo(Reason.STALE_TIMESTAMP);
  }

  @Test
  void timestampSixMinutesInTheFuture_isStale() {
    Map<String, String> headers = signatureAt(NOW.plus(Duration.ofMinutes(6))).headersFor(BODY);

    assertThat(reasonFor(headers, BODY)).isEqualTo(Reason.STALE_TIMESTAMP);
  }

  @Test
  void timestampExactlyAtTolerance_isAccepted() {
    Map<String, String> old = signatureAt(NOW.minus(Duration.ofMinutes(5))).headersFor(BODY);
    Map<String, String> ahead = signatureAt(NOW.plus(Duration.ofMinutes(5))).headersFor(BODY);

    assertThatCode(() -> verifier.verify(request(old, BODY))).doesNotThrowAnyException();
    assertThatCode(() -> verifier.verify(request(ahead, BODY))).doesNotThrowAnyException();
  }

  @Test
  void signedNonNumericTimestamp_isMalformed_notStale() {
    Map<String, String> headers =
        Map.of(
            SandboxSignature.TIMESTAMP_HEADER,
            "yesterday",
            SandboxSignature.SIGNATURE_HEADER,
            verifier.sign("yesterday", BODY));

    assertThat(reasonFor(headers, BODY)).isEqualTo(Reason.MALFORMED);
  }

  @Test
  void missingTimestampOrSignatureHeader_isMissingSignature() {
    Map<String, String> signed = verifier.headersFor(BODY);
    Map<String, String> noTimestamp = new HashMap<>(signed);
    noTimestamp.remove(SandboxSignature.TIMESTAMP_HEADER);
    Map<String, String> noSignature = new HashMap<>(signed);
    noSignature.remove(SandboxSignature.SIGNATURE_HEADER);

    assertThat(reasonFor(noTimestamp, BODY)).isEqualTo(Reason.MISSING_SIGNATURE);
    assertThat(reasonFor(noSignature, BODY)).isEqualTo(Reason.MISSING_SIGNATURE);
    assertThat(reasonFor(Map.of(), BODY)).isEqualTo(Reason.MISSING_SIGNATURE);
  }

  @Test
  void headerNames_matchCaseInsensitively() {
    Map<String, String> lower = new HashMap<>();
    verifier.headersFor(BODY).forEach((k, v) -> lower.put(k.toLowerCase(), v));

    assertThatCode(() -> verifier.verify(request(lower, BODY))).doesNotThrowAnyException();
  }

  private Reason reasonFor(Map<String, String> headers, byte[] body) {
    CallbackRejectedException e =
        catchThrowableOfType(
            CallbackRejectedException.class, () -> verifier.verify(request(headers, body)));
    assertThat(e).as("expected a rejection").isNotNull();
    return e.reason();
  }

  static CallbackRequest request(Map<String, String> headers, byte[] body) {
    return new CallbackRequest(headers, body, NOW);
  }

  private static SandboxSignature signatureAt(Instant now) {
    return new SandboxSignature(SECRET, SandboxSignature.DEFAULT_TOLERANCE, fixed(now));
  }

  private static Clock fixed(Instant now) {
    return Clock.fixed(now, ZoneOffset.UTC);
  }
}

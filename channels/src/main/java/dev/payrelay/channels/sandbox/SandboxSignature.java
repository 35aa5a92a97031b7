package dev.payrelay.channels.sandbox;

import dev.payrelay.domain.channel.CallbackRejectedException;
import dev.payrelay.domain.channel.CallbackRejectedException.Reason;
import dev.payrelay.domain.channel.CallbackRequest;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The sandbox channel's callback signing scheme, modelled on Stripe's webhook signatures.
 *
 * <p>A signed callback carries {@value #TIMESTAMP_HEADER}{@code : <unix seconds>} and {@value
 * #SIGNATURE_HEADER}{@code : v1=<hex>}, where {@code <hex>} is the lowercase hex HMAC-SHA256, keyed
 * with the shared secret (UTF-8), of the timestamp string (UTF-8; in practice ASCII digits), one
 * {@code '.'}, and the raw body bytes exactly as sent. The body is never re-serialised: DESIGN
 * invariant 2. Verification compares in constant time ({@link MessageDigest#isEqual}) and accepts a
 * timestamp only within the tolerance window in both directions of this verifier's clock, which
 * bounds replays.
 *
 * <p>Thread-safe: a new {@link Mac} is made per call.
 */
public final class SandboxSignature {

  /** Header carrying the signing time in Unix epoch seconds, e.g. {@code 1767225600}. */
  public static final String TIMESTAMP_HEADER = "X-Sandbox-Timestamp";

  /** Header carrying the signature as {@code v1=<lowercase hex HMAC-SHA256>}. */
  public static final String SIGNATURE_HEADER = "X-Sandbox-Signature";

  /** The tolerance real channels commonly use (Stripe's default): five minutes either way. */
  public static final Duration DEFAULT_TOLERANCE = Duration.ofMinutes(5);

  private static final String SCHEME_PREFIX = "v1=";
  private static final String ALGORITHM = "HmacSHA256";

  private final byte[] key;
  private final Duration tolerance;
  private final Clock clock;

  /**
   * @param secret the shared signing secret; must not be empty
   * @param tolerance how far (either direction) a timestamp may be from {@code clock}'s now
   * @param clock the time source for signing and for the freshness check
   * @throws IllegalArgumentException for an empty secret or a negative tolerance
   */
  public SandboxSignature(String secret, Duration tolerance, Clock clock) {
    if (secret == null || secret.isEmpty()) {
      throw new IllegalArgumentException("sandbox signing secret must not be empty");
    }
    if (tolerance.isNegative()) {
      throw new IllegalArgumentException("tolerance must not be negative: " + tolerance);
    }
    this.key = secret.getBytes(StandardCharsets.UTF_8);
    this.tolerance = tolerance;
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * The signature header value for a body signed at a timestamp.
   *
   * @param timestamp the timestamp string exactly as it will be sent (normally Unix seconds)
   * @param rawBody the exact body bytes that will be sent
   * @return {@code v1=<64 lowercase hex chars>}
   */
  public String sign(String timestamp, byte[] rawBody) {
    return SCHEME_PREFIX + HexFormat.of().formatHex(mac(timestamp, rawBody));
  }

  /**
   * Both headers for a body signed now by this signer's clock.
   *
   * @param rawBody the exact body bytes that will be sent
   * @return an ordered map: {@value #TIMESTAMP_HEADER} then {@value #SIGNATURE_HEADER}
   */
  public Map<String, String> headersFor(byte[] rawBody) {
    String timestamp = Long.toString(clock.instant().getEpochSecond());
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put(TIMESTAMP_HEADER, timestamp);
    headers.put(SIGNATURE_HEADER, sign(timestamp, rawBody));
    return headers;
  }

  /**
   * Verifies a callback's signature over its raw bytes, then its timestamp's freshness.
   *
   * @throws CallbackRejectedException with {@link Reason#MISSING_SIGNATURE} if either header is
   *     absent or blank, {@link Reason#BAD_SIGNATURE} if the HMAC does not match (including a
   *     missing {@code v1=} prefix), {@link Reason#MALFORMED} if the signed timestamp is not an
   *     integer (Unix seconds), {@link Reason#STALE_TIMESTAMP} if it lies outside the tolerance
   *     window
   */
  public void verify(CallbackRequest request) throws CallbackRejectedException {
    String timestamp = requiredHeader(request, TIMESTAMP_HEADER);
    String signature = requiredHeader(request, SIGNATURE_HEADER);
    byte[] expected = sign(timestamp, request.rawBody()).getBytes(StandardCharsets.UTF_8);
    if (!MessageDigest.isEqual(expected, signature.getBytes(StandardCharsets.UTF_8))) {
      throw new CallbackRejectedException(Reason.BAD_SIGNATURE, "sandbox signature mismatch");
    }
    checkFresh(timestamp);
  }

  private void checkFresh(String timestamp) throws CallbackRejectedException {
    Instant signedAt;
    try {
      signedAt = Instant.ofEpochSecond(Long.parseLong(timestamp));
    } catch (NumberFormatException | DateTimeException e) {
      throw new CallbackRejectedException(
          Reason.MALFORMED, "sandbox timestamp is not Unix seconds: " + timestamp, e);
    }
    Duration skew = Duration.between(signedAt, clock.instant()).abs();
    if (skew.compareTo(tolerance) > 0) {
      throw new CallbackRejectedException(
          Reason.STALE_TIMESTAMP,
          "sandbox timestamp " + signedAt + " is " + skew + " from now; tolerance " + tolerance);
    }
  }

  private static String requiredHeader(CallbackRequest request, String name)
      throws CallbackRejectedException {
    String value = request.header(name).map(String::strip).orElse("");
    if (value.isEmpty()) {
      throw new CallbackRejectedException(Reason.MISSING_SIGNATURE, "missing header " + name);
    }
    return value;
  }

  private byte[] mac(String timestamp, byte[] rawBody) {
    try {
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(new SecretKeySpec(key, ALGORITHM));
      mac.update(timestamp.getBytes(StandardCharsets.UTF_8));
      mac.update((byte) '.');
      return mac.doFinal(rawBody);
    } catch (GeneralSecurityException e) {
      // Every Java SE platform must provide HmacSHA256 (per the Mac javadoc), so this is a bug.
      throw new IllegalStateException("HmacSHA256 unavailable", e);
    }
  }
}

package dev.payrelay.domain.operator;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Short-lived tokens that give an operator signal sent outside the admin API (Temporal UI, {@code
 * temporal workflow signal}) a verified identity. The admin API signs a {@link SignalGrant}; the
 * activity that applies the signal's fix verifies it, since a signal's JSON is whatever its sender
 * typed. Shape: {@code pst1.<base64url(fields)>.<base64url(HMAC-SHA256(secret, fields))>}, the
 * fields being version, workflow id, action, target, operator, key id and expiry (Unix seconds)
 * joined by line feeds; the MAC is compared in constant time.
 *
 * <p>A token is a bearer credential until it expires: anyone who reads it (e.g. in the workflow's
 * history) may send the same action to the same target of the same workflow again until then; it is
 * good for nothing else.
 */
public final class SignalTokens {

  /** What every token starts with; the version of its shape. */
  public static final String PREFIX = "pst1.";

  private static final String ALGORITHM = "HmacSHA256";
  private static final String VERSION = "1";
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

  private final byte[] secret;
  private final Duration ttl;
  private final Clock clock;

  /**
   * Tokens under {@code secret}, each valid for {@code ttl} after it is signed.
   *
   * @throws IllegalArgumentException for an empty secret or a ttl that is not positive
   */
  public SignalTokens(byte[] secret, Duration ttl, Clock clock) {
    if (secret.length == 0 || ttl.isNegative() || ttl.isZero()) {
      throw new IllegalArgumentException("a signal token secret and a positive lifetime needed");
    }
    this.secret = secret.clone();
    this.ttl = ttl;
    this.clock = clock;
  }

  /**
   * The target a token for {@code EXTEND_DEADLINE} names: the payment and the new deadline, {@code
   * pay_…@2026-12-01T12:00:00Z}, so the token vouches for that deadline only and a signal that
   * carries it with another {@code until} is not verified.
   */
  public static String deadlineTarget(String paymentId, Instant until) {
    return paymentId + "@" + until;
  }

  /**
   * The grant of {@code action} on {@code target} through {@code workflowId}, for the key {@code
   * keyId} of {@code operator}, expiring {@code ttl} from now (rounded down to the second).
   */
  public SignalGrant grant(
      String workflowId, String action, String target, String operator, String keyId) {
    Instant expires = clock.instant().plus(ttl).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
    return new SignalGrant(workflowId, action, target, operator, keyId, expires);
  }

  /**
   * The token of {@code grant}.
   *
   * @throws IllegalArgumentException if a field holds a line feed
   * @throws NullPointerException if a field is null
   */
  public String sign(SignalGrant grant) {
    byte[] fields = fields(grant).getBytes(StandardCharsets.UTF_8);
    return PREFIX + ENCODER.encodeToString(fields) + "." + ENCODER.encodeToString(mac(fields));
  }

  /**
   * Checks that {@code token} was signed with this secret for exactly this workflow, action and
   * target, and has not expired.
   *
   * @return the verified grant, or why the token is refused (never throws for a bad token)
   */
  public SignalVerdict verify(String token, String workflowId, String action, String target) {
    if (token == null || token.isBlank()) {
      return SignalVerdict.refused("no token");
    }
    SignalGrant grant;
    try {
      grant = parse(token.strip());
    } catch (IllegalArgumentException e) {
      return SignalVerdict.refused("token " + e.getMessage());
    }
    String mismatch =
        mismatch("workflow", grant.workflowId(), workflowId)
            + mismatch("action", grant.action(), action)
            + mismatch("target", grant.target(), target);
    if (!mismatch.isEmpty()) {
      return SignalVerdict.refused("token signed" + mismatch.substring(1));
    }
    if (clock.instant().isAfter(grant.expiresAt())) {
      return SignalVerdict.refused("token expired at " + grant.expiresAt());
    }
    return SignalVerdict.verified(grant);
  }

  private SignalGrant parse(String token) {
    String[] parts =
        token.startsWith(PREFIX) ? token.substring(PREFIX.length()).split("\\.") : null;
    if (parts == null || parts.length != 2) {
      throw new IllegalArgumentException("is not " + PREFIX + "<fields>.<mac>");
    }
    Base64.Decoder decoder = Base64.getUrlDecoder();
    byte[] fields = decoder.decode(parts[0]);
    if (!MessageDigest.isEqual(mac(fields), decoder.decode(parts[1]))) {
      throw new IllegalArgumentException("signature does not match (altered, or another secret)");
    }
    List<String> f = List.of(new String(fields, StandardCharsets.UTF_8).split("\n", -1));
    if (f.size() != 7 || !VERSION.equals(f.get(0))) {
      throw new IllegalArgumentException("fields are not version " + VERSION);
    }
    return new SignalGrant(
        f.get(1), f.get(2), f.get(3), f.get(4), f.get(5), Instant.ofEpochSecond(seconds(f.get(6))));
  }

  private static long seconds(String text) {
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("expiry is not Unix seconds");
    }
  }

  /** "" when equal, else ", for {@code what} {@code signed}, not {@code asked}". */
  private static String mismatch(String what, String signed, String asked) {
    return signed.equals(asked) ? "" : ", for " + what + " " + signed + ", not " + asked;
  }

  private static String fields(SignalGrant g) {
    List<String> fields =
        List.of(
            VERSION,
            g.workflowId(),
            g.action(),
            g.target(),
            g.operator(),
            g.keyId(),
            Long.toString(g.expiresAt().getEpochSecond()));
    if (fields.stream().anyMatch(f -> f.indexOf('\n') >= 0)) {
      throw new IllegalArgumentException("a signal token field holds a line feed: " + g);
    }
    return String.join("\n", fields);
  }

  private byte[] mac(byte[] fields) {
    try {
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(new SecretKeySpec(secret, ALGORITHM));
      return mac.doFinal(fields);
    } catch (GeneralSecurityException e) {
      // Every Java SE platform must provide HmacSHA256 (per the Mac javadoc), so this is a bug.
      throw new IllegalStateException("HmacSHA256 unavailable", e);
    }
  }
}

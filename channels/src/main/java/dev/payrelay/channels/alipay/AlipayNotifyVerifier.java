package dev.payrelay.channels.alipay;

import com.alipay.api.AlipayApiException;
import com.alipay.api.internal.util.AlipaySignature;
import dev.payrelay.domain.channel.CallbackRejectedException;
import dev.payrelay.domain.channel.CallbackRejectedException.Reason;
import java.nio.charset.Charset;
import java.util.HashMap;
import java.util.Map;

/**
 * Verifies an Alipay asynchronous notification with the SDK's {@link
 * AlipaySignature#rsaCheckV1(Map, String, String, String)}, per the open platform's guide "异步通知验签"
 * (verifying asynchronous notifications): RSA2 (SHA256withRSA) with Alipay's public key over the
 * fields sorted by name, without {@code sign} and {@code sign_type} and without empty values,
 * joined {@code k=v&...}, on the decoded values encoded in the body's declared charset.
 *
 * <p>So the signature covers the decoded fields, not the bytes: a body re-encoded with other
 * percent escapes or another field order still verifies (the protocol allows it), while any changed
 * value, a value decoded in the wrong charset, or another key fails. Alipay's notifications carry
 * no key id (public-key mode) and no timestamp window: Alipay re-sends the same notification eight
 * times within 25 hours until it reads {@code success}, so {@code notify_time} is not checked.
 */
final class AlipayNotifyVerifier {

  private static final String SIGN_TYPE = "RSA2";

  private final String alipayPublicKey;

  AlipayNotifyVerifier(String alipayPublicKey) {
    this.alipayPublicKey = alipayPublicKey;
  }

  /**
   * Decodes the raw body in its declared charset and verifies its signature.
   *
   * @return the decoded fields, {@code sign} and {@code sign_type} included
   * @throws CallbackRejectedException MALFORMED when the body declares no supported charset or does
   *     not decode; MISSING_SIGNATURE without {@code sign} or {@code sign_type}; BAD_SIGNATURE for
   *     a {@code sign_type} other than RSA2 or a signature that does not verify
   */
  Map<String, String> verify(byte[] raw) throws CallbackRejectedException {
    Charset charset = charset(raw);
    Map<String, String> fields;
    try {
      fields = AlipayForm.decode(raw, charset);
    } catch (IllegalArgumentException e) {
      throw new CallbackRejectedException(Reason.MALFORMED, "not a form body: " + e.getMessage());
    }
    String sign = fields.get("sign");
    String signType = fields.get("sign_type");
    if (sign == null || sign.isEmpty() || signType == null || signType.isEmpty()) {
      throw new CallbackRejectedException(Reason.MISSING_SIGNATURE, "no sign or sign_type field");
    }
    if (!SIGN_TYPE.equals(signType)) {
      throw new CallbackRejectedException(
          Reason.BAD_SIGNATURE, "sign_type " + signType + " is not accepted, only RSA2");
    }
    if (!verified(fields, charset)) {
      throw new CallbackRejectedException(
          Reason.BAD_SIGNATURE, "RSA2 signature does not verify with Alipay's public key");
    }
    return fields;
  }

  /** Whether the SDK verifies {@code fields} as decoded in {@code charset}. */
  boolean verified(Map<String, String> fields, Charset charset) {
    try {
      // rsaCheckV1 removes sign and sign_type from the map it is given: hand it a copy.
      return AlipaySignature.rsaCheckV1(
          new HashMap<>(fields), alipayPublicKey, charset.name(), SIGN_TYPE);
    } catch (AlipayApiException | RuntimeException unverifiable) {
      // A sign that is not Base64 or a key that does not parse: nothing was proven.
      return false;
    }
  }

  private static Charset charset(byte[] raw) throws CallbackRejectedException {
    try {
      return AlipayForm.declaredCharset(raw)
          .orElseThrow(
              () ->
                  new CallbackRejectedException(
                      Reason.MALFORMED, "no charset field: the bytes cannot be decoded"));
    } catch (IllegalArgumentException e) {
      throw new CallbackRejectedException(Reason.MALFORMED, e.getMessage());
    }
  }
}

package dev.payrelay.simulators.alipay;

import com.alipay.api.AlipayApiException;
import com.alipay.api.internal.util.AlipaySignature;
import java.nio.charset.Charset;

/**
 * The private key the simulator plays Alipay's side with: it signs gateway answers and
 * notifications RSA2 (SHA256withRSA, "接口加签方式"), and its public half is what an adapter's config
 * calls {@code alipayPublicKey}. Tests replace it to show what the adapter refuses.
 */
final class AlipayKey {

  private volatile String privateKey;

  /**
   * @param privateKey PKCS#8, Base64
   */
  AlipayKey(String privateKey) {
    this.privateKey = privateKey;
  }

  /** Signs from now on with {@code privateKey} (PKCS#8, Base64). */
  void replace(String privateKey) {
    this.privateKey = privateKey;
  }

  /**
   * The Base64 RSA2 signature of {@code content} encoded in {@code charset}.
   *
   * @throws AlipayApiException if the key cannot sign (e.g. not a PKCS#8 RSA key)
   */
  String sign(String content, Charset charset) throws AlipayApiException {
    return AlipaySignature.rsaSign(content, privateKey, charset.name(), "RSA2");
  }
}

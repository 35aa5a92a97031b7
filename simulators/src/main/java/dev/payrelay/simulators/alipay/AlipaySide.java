package dev.payrelay.simulators.alipay;

import com.alipay.api.AlipayApiException;
import com.alipay.api.internal.util.AlipaySignature;
import java.nio.charset.Charset;
import java.time.Clock;
import java.time.Instant;

/**
 * Alipay's side as the simulator plays it, shared by its gateway and its notifier: the one app it
 * serves, the clock its times come from, and the private key it signs gateway answers and
 * notifications with (RSA2, SHA256withRSA: "接口加签方式"), whose public half is what an adapter's config
 * calls {@code alipayPublicKey}. Tests replace the key to show what the adapter refuses.
 */
final class AlipaySide {

  private final AlipaySimulatorConfig config;
  private final Clock clock;
  private volatile String privateKey;

  AlipaySide(AlipaySimulatorConfig config, Clock clock) {
    this.config = config;
    this.clock = clock;
    this.privateKey = config.alipayPrivateKey();
  }

  /** The app, seller and keys the simulator was configured with. */
  AlipaySimulatorConfig config() {
    return config;
  }

  /** Now, by the simulator's clock. */
  Instant now() {
    return clock.instant();
  }

  /** Signs from now on with {@code privateKey} (PKCS#8, Base64). */
  void replaceKey(String privateKey) {
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

package dev.payrelay.simulators.wechatpay;

import com.wechat.pay.java.core.cipher.AeadAesCipher;
import com.wechat.pay.java.core.cipher.RSASigner;
import com.wechat.pay.java.core.util.NonceUtil;
import com.wechat.pay.java.core.util.PemUtil;
import dev.payrelay.channels.wechatpay.WechatPayNotifications;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The keys the simulator plays WeChat Pay's side with: the platform private key that signs answers
 * and notifications (and the id it names in {@code Wechatpay-Serial}), and the APIv3 key that
 * encrypts notification resources. Tests replace them to show what the adapter refuses.
 */
final class PlatformKeys {

  private volatile String signingKey;
  private volatile String signingKeyId;
  private volatile String apiV3Key;

  PlatformKeys(WechatPaySimulatorConfig config) {
    this.signingKey = config.platformPrivateKey();
    this.signingKeyId = config.platformPublicKeyId();
    this.apiV3Key = config.apiV3Key();
  }

  /** Signs from now on with {@code privateKey} (PKCS#8, Base64), named {@code keyId}. */
  void setSigningKey(String privateKey, String keyId) {
    this.signingKey = privateKey;
    this.signingKeyId = keyId;
  }

  /** Encrypts from now on with another APIv3 key (32 characters). */
  void setApiV3Key(String key) {
    this.apiV3Key = key;
  }

  /**
   * The {@code Wechatpay-*} headers of a message signed at {@code at}: RSA-SHA256 over {@code
   * timestamp\nnonce\nbody\n} with a fresh 32-character nonce ("签名验证").
   */
  Map<String, String> signatureHeaders(Instant at, String body) {
    String timestamp = Long.toString(at.getEpochSecond());
    String nonce = NonceUtil.createNonce(32);
    String signature =
        new RSASigner(signingKeyId, PemUtil.loadPrivateKeyFromString(signingKey))
            .sign(timestamp + "\n" + nonce + "\n" + body + "\n")
            .getSign();
    Map<String, String> h = new LinkedHashMap<>();
    h.put("Wechatpay-Timestamp", timestamp);
    h.put("Wechatpay-Nonce", nonce);
    h.put("Wechatpay-Signature", signature);
    h.put("Wechatpay-Serial", signingKeyId);
    h.put("Wechatpay-Signature-Type", WechatPayNotifications.SIGN_TYPE);
    return h;
  }

  /**
   * {@code plaintext} encrypted AEAD_AES_256_GCM with the APIv3 key ("回调报文解密").
   *
   * @return the Base64 ciphertext
   */
  String encrypt(String associatedData, String nonce, String plaintext) {
    return new AeadAesCipher(apiV3Key.getBytes(StandardCharsets.UTF_8))
        .encrypt(
            associatedData.getBytes(StandardCharsets.UTF_8),
            nonce.getBytes(StandardCharsets.UTF_8),
            plaintext.getBytes(StandardCharsets.UTF_8));
  }
}

package dev.payrelay.channels.wechatpay;

import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * An RSA key pair in the text form the SDK's {@code PemUtil} reads: Base64 of the DER bytes (PEM
 * armour optional), the private key PKCS#8, the public key X.509 SubjectPublicKeyInfo.
 *
 * @param privateKey PKCS#8, Base64
 * @param publicKey X.509, Base64
 */
public record WechatPayKeys(String privateKey, String publicKey) {

  /** The private key stays out of logs. */
  @Override
  public String toString() {
    return "WechatPayKeys[publicKey=" + publicKey + "]";
  }

  /**
   * A fresh 2048-bit RSA pair, the size of WeChat Pay's merchant and platform keys
   * (WECHATPAY2-SHA256-RSA2048).
   *
   * @throws IllegalStateException if the JDK has no RSA key generator (it always has one)
   */
  public static WechatPayKeys generate() {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(2048);
      KeyPair pair = generator.generateKeyPair();
      Base64.Encoder base64 = Base64.getEncoder();
      return new WechatPayKeys(
          base64.encodeToString(pair.getPrivate().getEncoded()),
          base64.encodeToString(pair.getPublic().getEncoded()));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("no RSA in this JDK", e);
    }
  }
}

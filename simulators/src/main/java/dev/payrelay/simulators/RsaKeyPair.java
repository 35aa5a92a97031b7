package dev.payrelay.simulators;

import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * An RSA key pair in the text form the Alipay and WeChat Pay SDKs read: Base64 of the DER bytes
 * without PEM armour, the private key PKCS#8, the public key X.509 SubjectPublicKeyInfo. Used for
 * the simulators' keys and for keys generated at test start.
 *
 * @param privateKey PKCS#8, Base64
 * @param publicKey X.509, Base64
 */
public record RsaKeyPair(String privateKey, String publicKey) {

  /** The private key stays out of logs. */
  @Override
  public String toString() {
    return "RsaKeyPair[publicKey=" + publicKey + "]";
  }

  /**
   * A fresh 2048-bit RSA pair: the size Alipay requires for RSA2 keys and WeChat Pay uses for
   * merchant and platform keys (WECHATPAY2-SHA256-RSA2048).
   *
   * @throws IllegalStateException if the JDK has no RSA key generator (it always has one)
   */
  public static RsaKeyPair generate() {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(2048);
      KeyPair pair = generator.generateKeyPair();
      Base64.Encoder base64 = Base64.getEncoder();
      return new RsaKeyPair(
          base64.encodeToString(pair.getPrivate().getEncoded()),
          base64.encodeToString(pair.getPublic().getEncoded()));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("no RSA in this JDK", e);
    }
  }
}

package dev.payrelay.app.config.mapping;

import dev.payrelay.app.config.binder.Doc;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Optional;

/**
 * The payment channels' default merchant accounts. A secret is given inline or as a file ({@code
 * ..._FILE}, e.g. a mounted Docker or Kubernetes secret; one trailing line break dropped), not
 * both. A channel with a vendor SDK is served when enabled, or when its {@code _ENABLED} is unset
 * and a credential is set; under {@code payrelay dev} without credentials its simulator plays it.
 */
public interface ChannelMapping {

  /** {@code payrelay.sandbox}: the HMAC-signed test channel and its simulator. */
  interface Sandbox {

    /** See {@link Doc}. */
    @Doc(
        "Whether api and worker serve the sandbox (a test channel: its simulator marks any"
            + " payment PAID on request); production mode refuses true.")
    @WithDefault("true")
    boolean enabled();

    /** See {@link Doc}. */
    @Doc(
        value = "How payrelay reaches the channel.",
        byDefault = "http://127.0.0.1:<PAYRELAY_SANDBOX_PORT>")
    Optional<URI> url();

    /** See {@link Doc}. */
    @Doc("Where payrelay sandbox and dev serve the simulator.")
    @WithDefault("127.0.0.1")
    String bind();

    /** See {@link Doc}. */
    @Doc(value = "The simulator's port.", min = "0", max = "65535")
    @WithDefault("8090")
    int port();

    /** See {@link Doc}. */
    @Doc("The default merchant account, used by every tenant without an account of its own.")
    @WithDefault("m_payrelay_dev")
    String merchantId();

    /** See {@link Doc}. */
    @Doc(
        value =
            "The default account's HMAC key shared with the channel; production mode refuses the"
                + " published default and any shorter than 32 bytes.",
        byDefault = "a published dev secret",
        mask = Doc.Mask.SECRET)
    Optional<String> secret();

    /** See {@link Doc}. */
    @Doc("A file holding the sandbox secret.")
    Optional<Path> secretFile();

    /** See {@link Doc}. */
    @Doc(value = "How old a callback's signed timestamp may be.", min = "1s")
    @WithDefault("5m")
    Duration tolerance();
  }

  /** {@code payrelay.stripe}: our Stripe account. */
  interface Stripe {

    /** See {@link Doc}. */
    @Doc(value = "Serve Stripe.", byDefault = "when a credential is set")
    Optional<Boolean> enabled();

    /** See {@link Doc}. */
    @Doc("Our account (acct_...), the merchant id of every Stripe payment.")
    Optional<String> accountId();

    /** See {@link Doc}. */
    @Doc(
        value = "The secret key (production mode needs sk_live_... or rk_live_...).",
        mask = Doc.Mask.SECRET)
    Optional<String> apiKey();

    /** See {@link Doc}. */
    @Doc("A file holding the secret key.")
    Optional<Path> apiKeyFile();

    /** See {@link Doc}. */
    @Doc(
        value =
            "The signing secret (whsec_...) of the webhook endpoint"
                + " <PAYRELAY_PUBLIC_URL>/v1/webhooks/stripe registered at Stripe.",
        mask = Doc.Mask.SECRET)
    Optional<String> webhookSecret();

    /** See {@link Doc}. */
    @Doc("A file holding the webhook signing secret.")
    Optional<Path> webhookSecretFile();

    /** See {@link Doc}. */
    @Doc("Stripe's API.")
    @WithDefault("https://api.stripe.com")
    URI apiBase();

    /** See {@link Doc}. */
    @Doc(
        value =
            "The merchant's page mounting Stripe's Payment Element (served by the merchant's"
                + " front end); payments' pay URLs point there.",
        byDefault = "<PAYRELAY_PUBLIC_URL>/pay/stripe")
    Optional<URI> payPageUrl();

    /** See {@link Doc}. */
    @Doc("The account's reporting time zone, in which a statement day runs.")
    @WithDefault("UTC")
    ZoneId statementZone();
  }

  /** {@code payrelay.alipay}: our Alipay app (public-key mode, RSA2). */
  interface Alipay {

    /** See {@link Doc}. */
    @Doc(value = "Serve Alipay.", byDefault = "when a credential is set")
    Optional<Boolean> enabled();

    /** See {@link Doc}. */
    @Doc("Our app's app_id, the merchant id of every Alipay payment.")
    Optional<String> appId();

    /** See {@link Doc}. */
    @Doc(
        value = "The app's RSA private key, PKCS#8 DER in Base64 without PEM armour.",
        mask = Doc.Mask.SECRET)
    Optional<String> appPrivateKey();

    /** See {@link Doc}. */
    @Doc("A file holding the app's private key.")
    Optional<Path> appPrivateKeyFile();

    /** See {@link Doc}. */
    @Doc("Alipay's RSA public key from the app's console, X.509 DER in Base64 without armour.")
    Optional<String> publicKey();

    /** See {@link Doc}. */
    @Doc("A file holding Alipay's public key.")
    Optional<Path> publicKeyFile();

    /** See {@link Doc}. */
    @Doc("Alipay's open platform gateway.")
    @WithDefault("https://openapi.alipay.com/gateway.do")
    URI gatewayUrl();
  }

  /** {@code payrelay.wechatpay}: our WeChat Pay merchant (APIv3, Native, public-key mode). */
  interface Wechatpay {

    /** See {@link Doc}. */
    @Doc(value = "Serve WeChat Pay.", byDefault = "when a credential is set")
    Optional<Boolean> enabled();

    /** See {@link Doc}. */
    @Doc("Our mchid (商户号), the merchant id of every WeChat Pay payment.")
    Optional<String> mchId();

    /** See {@link Doc}. */
    @Doc("The appid bound to the merchant.")
    Optional<String> appId();

    /** See {@link Doc}. */
    @Doc("The serial number of the merchant API certificate whose private key signs requests.")
    Optional<String> merchantSerialNumber();

    /** See {@link Doc}. */
    @Doc(
        value = "That certificate's RSA private key, PKCS#8, PEM or bare Base64.",
        mask = Doc.Mask.SECRET)
    Optional<String> merchantPrivateKey();

    /** See {@link Doc}. */
    @Doc("A file holding the merchant private key (e.g. apiclient_key.pem).")
    Optional<Path> merchantPrivateKeyFile();

    /** See {@link Doc}. */
    @Doc(
        value =
            "The APIv3 key (APIv3密钥), 32 ASCII characters, which decrypts notification"
                + " resources (AES-256-GCM).",
        mask = Doc.Mask.SECRET)
    @WithName("api-v3-key")
    Optional<String> apiV3Key();

    /** See {@link Doc}. */
    @Doc("A file holding the APIv3 key.")
    @WithName("api-v3-key-file")
    Optional<Path> apiV3KeyFile();

    /** See {@link Doc}. */
    @Doc("The WeChat Pay public key's id (PUB_KEY_ID_...), named in Wechatpay-Serial.")
    Optional<String> publicKeyId();

    /** See {@link Doc}. */
    @Doc("WeChat Pay's RSA public key from the merchant platform, X.509, PEM or bare Base64.")
    Optional<String> publicKey();

    /** See {@link Doc}. */
    @Doc("A file holding WeChat Pay's public key (e.g. pub_key.pem).")
    Optional<Path> publicKeyFile();

    /** See {@link Doc}. */
    @Doc("WeChat Pay's API host.")
    @WithDefault("https://api.mch.weixin.qq.com")
    URI baseUrl();
  }
}

package dev.payrelay.e2e;

import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_EXCEPTION;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;
import static dev.payrelay.ledger.db.generated.Tables.WEBHOOK_INBOX;
import static org.assertj.core.api.Assertions.assertThat;

import com.alipay.api.internal.util.AlipaySignature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.stripe.Stripe;
import com.stripe.net.Webhook;
import dev.payrelay.channels.sandbox.SandboxNotification;
import dev.payrelay.channels.sandbox.SandboxSignature;
import dev.payrelay.devstack.ChannelSimulators;
import dev.payrelay.ledger.db.generated.tables.records.WebhookInboxRecord;
import dev.payrelay.simulators.RsaKeyPair;
import dev.payrelay.simulators.wechatpay.SimulatedWechatNotification;
import dev.payrelay.simulators.wechatpay.WechatPaySimulator;
import dev.payrelay.simulators.wechatpay.WechatPaySimulatorConfig;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The verifying account is the merchant, on every channel and both webhook URLs: tenant {@code
 * acme} has its own account at the sandbox, Stripe, Alipay and WeChat Pay, tenant {@code globex}
 * uses each channel's default account. A callback that one account's secret or key really signed,
 * naming a payment of the other account (with the other merchant in its body, as an attacker would
 * write it), is refused: 403 {@code OTHER_ACCOUNT} at the signer's merchant URL, a failed signature
 * at the channel URL (where the payment's own account verifies), recorded in {@code webhook_inbox},
 * counted, and the payment stays PENDING with no exception and no event recorded against it. On
 * real MariaDB, RabbitMQ and Temporal.
 */
class CrossTenantCallbacksEndToEndTest {

  private static final String ACME = "acme";
  private static final String GLOBEX = "globex";
  private static final String ACME_SANDBOX = "m_acme";
  private static final String ACME_SANDBOX_SECRET = "acme-sandbox-secret-0123456789abcdef";
  private static final String ACME_STRIPE = "acct_1Acme";
  private static final String ACME_WHSEC = "whsec_acmeAcmeAcme0123456789";
  private static final String ACME_ALIPAY = "2021000000000002";
  private static final String ACME_WECHAT = "1900000002";
  private static final String ACME_WECHAT_APP = "wx00000000000000a2";
  private static final String ACME_API_V3_KEY = "acmeAcmeAcmeAcmeAcmeAcmeAcme0123";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final RsaKeyPair ACME_ALIPAY_PLATFORM = RsaKeyPair.generate();
  private static WechatPaySimulator acmeWechatPay;
  private static PayrelayHarness payrelay;
  private static DSLContext dsl;

  @BeforeAll
  static void start() throws Exception {
    RsaKeyPair wechatMerchant = RsaKeyPair.generate();
    RsaKeyPair wechatPlatform = RsaKeyPair.generate();
    acmeWechatPay =
        new WechatPaySimulator(
            new WechatPaySimulatorConfig(
                "127.0.0.1",
                0,
                ACME_WECHAT,
                ACME_WECHAT_APP,
                "5157F09EFDC096DE15EBE81A47057A7232F1B8E1",
                wechatMerchant.publicKey(),
                "PUB_KEY_ID_0119000000022025",
                wechatPlatform.privateKey(),
                ACME_API_V3_KEY),
            Clock.systemUTC(),
            HttpClient.newHttpClient());
    acmeWechatPay.start();
    Path dir = Files.createDirectories(Path.of("target", "cross-tenant-callbacks"));
    Path wechatKey = dir.resolve("acme-wechatpay-pub_key");
    Files.writeString(wechatKey, wechatPlatform.publicKey() + "\n");
    Path alipayKey = dir.resolve("acme-alipay-public-key");
    Files.writeString(alipayKey, ACME_ALIPAY_PLATFORM.publicKey() + "\n");
    Path accounts = dir.resolve("accounts.json");
    Files.writeString(
        accounts,
        """
        {"accounts": [
          {"channel": "sandbox", "merchantId": "%s", "tenants": ["%s"],
           "secretEnv": "ACME_SANDBOX_SECRET"},
          {"channel": "stripe", "merchantId": "%s", "tenants": ["%s"],
           "credentials": {"apiKey": {"env": "ACME_STRIPE_KEY"},
                           "webhookSecret": {"env": "ACME_STRIPE_WHSEC"}}},
          {"channel": "alipay", "merchantId": "%s", "tenants": ["%s"],
           "credentials": {"appPrivateKey": {"env": "ACME_ALIPAY_APP_KEY"},
                           "alipayPublicKey": {"file": "%s"}}},
          {"channel": "wechatpay", "merchantId": "%s", "tenants": ["%s"],
           "credentials": {"appId": "%s",
                           "merchantSerialNumber": "5157F09EFDC096DE15EBE81A47057A7232F1B8E1",
                           "merchantPrivateKey": {"env": "ACME_WECHATPAY_KEY"},
                           "apiV3Key": {"env": "ACME_WECHATPAY_API_V3_KEY"},
                           "publicKeyId": "PUB_KEY_ID_0119000000022025",
                           "publicKey": {"file": "%s"}, "baseUrl": "%s"}}
        ]}
        """
            .formatted(
                ACME_SANDBOX,
                ACME,
                ACME_STRIPE,
                ACME,
                ACME_ALIPAY,
                ACME,
                alipayKey.toAbsolutePath(),
                ACME_WECHAT,
                ACME,
                ACME_WECHAT_APP,
                wechatKey.toAbsolutePath(),
                acmeWechatPay.baseUrl()));
    Map<String, String> env = new HashMap<>();
    env.put("PAYRELAY_STRIPE_ENABLED", "true");
    env.put("PAYRELAY_ALIPAY_ENABLED", "true");
    env.put("PAYRELAY_WECHATPAY_ENABLED", "true");
    env.put("PAYRELAY_CHANNEL_ACCOUNTS_FILE", accounts.toString());
    env.put("ACME_SANDBOX_SECRET", ACME_SANDBOX_SECRET);
    env.put("ACME_STRIPE_KEY", "sk_test_acme0123456789");
    env.put("ACME_STRIPE_WHSEC", ACME_WHSEC);
    env.put("ACME_ALIPAY_APP_KEY", RsaKeyPair.generate().privateKey());
    env.put("ACME_WECHATPAY_KEY", wechatMerchant.privateKey());
    env.put("ACME_WECHATPAY_API_V3_KEY", ACME_API_V3_KEY);
    payrelay = new PayrelayHarness(CrossTenantCallbacksEndToEndTest.class, env);
    dsl = payrelay.stack.services().database().dsl();
  }

  @AfterAll
  static void stop() throws Exception {
    try {
      payrelay.close();
    } finally {
      acmeWechatPay.close();
    }
  }

  @Test
  void sandbox_tenantsSecretAtItsOwnUrl_cannotConfirmAnotherTenantsPayment() throws Exception {
    String globex = payrelay.createPayment(GLOBEX, 1000, "USD", "c1");
    String defaultMerchant = merchant(globex);
    byte[] raw = sandboxPaid(globex, defaultMerchant, "10.00").toJson();

    assertRefusedAtBothUrls(
        "sandbox", ACME_SANDBOX, raw, sandboxHeaders(raw, ACME_SANDBOX_SECRET), globex);
  }

  @Test
  void sandbox_theDefaultSecretAtTheDefaultUrl_cannotConfirmATenantAccountsPayment()
      throws Exception {
    String acme = payrelay.createPayment(ACME, 1100, "USD", "c1");
    String defaultMerchant = merchant(payrelay.createPayment(GLOBEX, 100, "USD", "c1"));
    byte[] raw = sandboxPaid(acme, ACME_SANDBOX, "11.00").toJson();

    assertRefusedAtBothUrls(
        "sandbox", defaultMerchant, raw, sandboxHeaders(raw, PayrelayHarness.SECRET), acme);

    // The tenant's own secret at its own URL still confirms its own payment.
    HttpResponse<String> own =
        payrelay.postWebhook(
            "sandbox/" + ACME_SANDBOX, raw, sandboxHeaders(raw, ACME_SANDBOX_SECRET));
    assertThat(own.statusCode()).as(own.body()).isEqualTo(200);
    assertThat(payrelay.status(acme)).isEqualTo("PAID");
  }

  @Test
  void stripe_tenantsWebhookSecret_cannotSpeakForAnotherTenantsPayment() throws Exception {
    String globex = create("stripe", GLOBEX, 1200, "USD");
    String intent = txnOfCreation(globex);
    String event = stripeSucceeded(globex, intent, 1200);
    Map<String, String> headers = new HashMap<>();
    headers.put("Content-Type", "application/json; charset=utf-8");
    headers.put(
        "Stripe-Signature",
        Webhook.Signature.generateSignatureHeader(
            event, ACME_WHSEC, Instant.now().getEpochSecond()));

    assertRefusedAtBothUrls(
        "stripe", ACME_STRIPE, event.getBytes(StandardCharsets.UTF_8), headers, globex);
  }

  @Test
  void alipay_tenantsAlipayKey_cannotConfirmAnotherTenantsPayment() throws Exception {
    String globex = create("alipay", GLOBEX, 1300, "CNY");
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("charset", "utf-8");
    fields.put("notify_id", UUID.randomUUID().toString().replace("-", ""));
    fields.put("notify_type", "trade_status_sync");
    fields.put("notify_time", "2026-12-01 10:00:00");
    fields.put("trade_status", "TRADE_SUCCESS");
    fields.put("app_id", ChannelSimulators.ALIPAY_APP_ID);
    fields.put("out_trade_no", globex);
    fields.put("trade_no", "2026120122001400000000000001");
    fields.put("total_amount", "13.00");
    fields.put("version", "1.0");
    fields.put("sign_type", "RSA2");
    fields.put(
        "sign",
        AlipaySignature.rsaSign(
            AlipaySignature.getSignCheckContentV1(new HashMap<>(fields)),
            ACME_ALIPAY_PLATFORM.privateKey(),
            "utf-8",
            "RSA2"));
    byte[] raw =
        fields.entrySet().stream()
            .map(f -> f.getKey() + "=" + URLEncoder.encode(f.getValue(), StandardCharsets.UTF_8))
            .collect(Collectors.joining("&"))
            .getBytes(StandardCharsets.UTF_8);

    assertRefusedAtBothUrls(
        "alipay",
        ACME_ALIPAY,
        raw,
        Map.of("Content-Type", "application/x-www-form-urlencoded; charset=utf-8"),
        globex);
  }

  @Test
  void wechatPay_tenantsKeys_cannotConfirmAnotherTenantsPayment() throws Exception {
    String globex = create("wechatpay", GLOBEX, 1400, "CNY");
    SimulatedWechatNotification forged =
        acmeWechatPay.signedNotification(
            "TRANSACTION.SUCCESS",
            "transaction",
            """
            {"mchid":"%s","appid":"%s","out_trade_no":"%s","transaction_id":"4200000000000099",
             "trade_state":"SUCCESS","amount":{"total":1400,"payer_total":1400,"currency":"CNY"}}
            """
                .formatted(ChannelSimulators.WECHATPAY_MCH_ID, ACME_WECHAT_APP, globex));

    assertRefusedAtBothUrls("wechatpay", ACME_WECHAT, forged.rawBody(), forged.headers(), globex);
  }

  /**
   * At {@code /v1/webhooks/{channel}/{signer}} the callback verifies and is refused 403
   * OTHER_ACCOUNT; at {@code /v1/webhooks/{channel}} the payment's own account verifies it and its
   * signature fails. Either way {@code victim} is untouched and the refusal is recorded and
   * counted.
   */
  private static void assertRefusedAtBothUrls(
      String channel, String signer, byte[] raw, Map<String, String> headers, String victim)
      throws Exception {
    double countedBefore = otherAccountCount(channel);
    int eventsBefore = events(victim);

    HttpResponse<String> atSignersUrl = payrelay.postWebhook(channel + "/" + signer, raw, headers);
    HttpResponse<String> atChannelUrl = payrelay.postWebhook(channel, raw, headers);

    assertThat(atSignersUrl.statusCode()).as(atSignersUrl.body()).isEqualTo(403);
    WebhookInboxRecord refused = inbox(channel, 2);
    assertThat(refused.getOutcome()).isEqualTo("OTHER_ACCOUNT");
    assertThat(refused.getSignatureValid()).isTrue();
    assertThat(refused.getHttpStatus()).isEqualTo(403);
    assertThat(refused.getOutcomeDetail()).contains(victim).contains(signer);
    assertThat(atChannelUrl.statusCode()).as(atChannelUrl.body()).isBetween(400, 499);
    assertThat(inbox(channel, 1).getSignatureValid()).isFalse();
    assertThat(payrelay.status(victim)).isEqualTo("PENDING");
    assertThat(dsl.fetchCount(PAYMENT_EXCEPTION, PAYMENT_EXCEPTION.PAYMENT_ID.eq(victim))).isZero();
    assertThat(events(victim)).isEqualTo(eventsBefore);
    assertThat(otherAccountCount(channel)).isEqualTo(countedBefore + 1);
  }

  private static SandboxNotification sandboxPaid(String paymentId, String merchant, String amount) {
    String txn = "sbx_x_" + UUID.randomUUID().toString().substring(0, 8);
    return new SandboxNotification(
        "ntf_" + txn, merchant, paymentId, txn, amount, "USD", "PAID", Instant.now());
  }

  private static Map<String, String> sandboxHeaders(byte[] raw, String secret) {
    Map<String, String> headers =
        new HashMap<>(
            new SandboxSignature(secret, Duration.ofMinutes(5), Clock.systemUTC()).headersFor(raw));
    headers.put("Content-Type", "application/json");
    return headers;
  }

  private static String stripeSucceeded(String paymentId, String intent, long cents)
      throws Exception {
    Map<String, Object> object = new LinkedHashMap<>();
    object.put("id", intent);
    object.put("object", "payment_intent");
    object.put("amount", cents);
    object.put("amount_received", cents);
    object.put("currency", "usd");
    object.put("status", "succeeded");
    object.put("metadata", Map.of("payment_id", paymentId));
    Map<String, Object> event = new LinkedHashMap<>();
    event.put("id", "evt_" + UUID.randomUUID().toString().replace("-", ""));
    event.put("object", "event");
    event.put("api_version", Stripe.API_VERSION);
    event.put("created", Instant.now().getEpochSecond());
    event.put("data", Map.of("object", object));
    event.put("livemode", false);
    event.put("type", "payment_intent.succeeded");
    return JSON.writeValueAsString(event);
  }

  private static String create(String channel, String tenant, long minor, String currency)
      throws Exception {
    JsonNode created =
        payrelay.createPaymentAt(channel, tenant, "o-" + UUID.randomUUID(), minor, currency, "c1");
    return created.path("payment").path("paymentId").asText();
  }

  /** The Stripe PaymentIntent the default account's simulator made for {@code paymentId}. */
  private static String txnOfCreation(String paymentId) {
    return payrelay.stack.simulators().stripe().orElseThrow().intentId(paymentId);
  }

  private static String merchant(String paymentId) {
    return dsl.fetchSingle(PAYMENT_ORDER, PAYMENT_ORDER.PAYMENT_ID.eq(paymentId)).getMerchantId();
  }

  private static int events(String paymentId) {
    return dsl.fetchCount(OUTBOX_EVENT, OUTBOX_EVENT.AGGREGATE_ID.eq(paymentId));
  }

  /** The {@code n}-th latest inbox row of {@code channel} (1: the latest). */
  private static WebhookInboxRecord inbox(String channel, int n) {
    return dsl.selectFrom(WEBHOOK_INBOX)
        .where(WEBHOOK_INBOX.CHANNEL.eq(channel))
        .orderBy(WEBHOOK_INBOX.ID.desc())
        .limit(1)
        .offset(n - 1)
        .fetchSingle();
  }

  private static double otherAccountCount(String channel) {
    return payrelay
        .stack
        .services()
        .metrics()
        .find("payrelay.webhook.callbacks")
        .tags("channel", channel, "outcome", "OTHER_ACCOUNT")
        .counters()
        .stream()
        .mapToDouble(c -> c.count())
        .sum();
  }
}

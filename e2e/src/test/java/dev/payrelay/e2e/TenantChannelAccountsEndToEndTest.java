package dev.payrelay.e2e;

import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;
import static dev.payrelay.ledger.db.generated.Tables.WEBHOOK_INBOX;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payrelay.devstack.ChannelSimulators;
import dev.payrelay.ledger.db.generated.tables.records.WebhookInboxRecord;
import dev.payrelay.simulators.RsaKeyPair;
import dev.payrelay.simulators.wechatpay.SimulatedWechatNotification;
import dev.payrelay.simulators.wechatpay.WechatPaySimulator;
import dev.payrelay.simulators.wechatpay.WechatPaySimulatorConfig;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A tenant's own merchant account at a real-protocol channel, end to end: a WeChat Pay merchant of
 * the tenant's (its own simulator, keys and APIv3 key, given in {@code
 * PAYRELAY_CHANNEL_ACCOUNTS_FILE}) next to the default merchant. The tenant's payments are created
 * at its merchant, its notifications come to its account's URL and are verified with its keys, and
 * the workflow's query asks its merchant, never the default one.
 */
class TenantChannelAccountsEndToEndTest {

  private static final Duration WAIT = Duration.ofSeconds(40);
  private static final String TENANT = "acme";
  private static final String TENANT_MCH_ID = "1900000002";
  private static final String TENANT_APP_ID = "wx00000000000000a2";
  private static final String TENANT_SERIAL = "5157F09EFDC096DE15EBE81A47057A7232F1B8E1";
  private static final String TENANT_KEY_ID = "PUB_KEY_ID_0119000000022025";
  private static final String TENANT_API_V3_KEY = "acmeAcmeAcmeAcmeAcmeAcmeAcme0123";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static WechatPaySimulator tenantWechatPay;
  private static PayrelayHarness payrelay;
  private static DSLContext dsl;

  @BeforeAll
  static void start() throws Exception {
    RsaKeyPair merchant = RsaKeyPair.generate();
    RsaKeyPair platform = RsaKeyPair.generate();
    tenantWechatPay =
        new WechatPaySimulator(
            new WechatPaySimulatorConfig(
                "127.0.0.1",
                0,
                TENANT_MCH_ID,
                TENANT_APP_ID,
                TENANT_SERIAL,
                merchant.publicKey(),
                TENANT_KEY_ID,
                platform.privateKey(),
                TENANT_API_V3_KEY),
            Clock.systemUTC(),
            HttpClient.newHttpClient());
    tenantWechatPay.start();
    Path dir = Files.createDirectories(Path.of("target", "tenant-channel-accounts"));
    Path publicKey = dir.resolve("acme-wechatpay-pub_key");
    Files.writeString(publicKey, platform.publicKey() + "\n");
    Path accounts = dir.resolve("accounts.json");
    Files.writeString(
        accounts,
        """
        {"accounts": [
          {"channel": "wechatpay", "merchantId": "%s", "tenants": ["%s"],
           "credentials": {"appId": "%s", "merchantSerialNumber": "%s",
                           "merchantPrivateKey": {"env": "ACME_WECHATPAY_KEY"},
                           "apiV3Key": {"env": "ACME_WECHATPAY_API_V3_KEY"},
                           "publicKeyId": "%s", "publicKey": {"file": "%s"},
                           "baseUrl": "%s"}}
        ]}
        """
            .formatted(
                TENANT_MCH_ID,
                TENANT,
                TENANT_APP_ID,
                TENANT_SERIAL,
                TENANT_KEY_ID,
                publicKey.toAbsolutePath(),
                tenantWechatPay.baseUrl()));
    Map<String, String> env = new HashMap<>();
    env.put("PAYRELAY_WECHATPAY_ENABLED", "true");
    env.put("PAYRELAY_CHANNEL_ACCOUNTS_FILE", accounts.toString());
    env.put("ACME_WECHATPAY_KEY", merchant.privateKey());
    env.put("ACME_WECHATPAY_API_V3_KEY", TENANT_API_V3_KEY);
    env.put("PAYRELAY_QUERY_GRACE", "3s");
    env.put("PAYRELAY_QUERY_INITIAL", "1s");
    payrelay = new PayrelayHarness(TenantChannelAccountsEndToEndTest.class, env);
    dsl = payrelay.stack.services().database().dsl();
  }

  @AfterAll
  static void stop() throws Exception {
    try {
      payrelay.close();
    } finally {
      tenantWechatPay.close();
    }
  }

  @Test
  void tenantsPayment_isCreatedAtItsMerchant_andItsNotificationToItsAccountUrlConfirmsIt()
      throws Exception {
    String paymentId = create(TENANT, 1200);
    assertThat(tenantWechatPay.tradeState(paymentId)).contains("NOTPAY");
    assertThat(payrelay.stack.simulators().wechatpay().orElseThrow().tradeState(paymentId))
        .isEmpty();

    SimulatedWechatNotification paid = tenantWechatPay.pay(paymentId);

    assertThat(paid.httpStatus()).as("payrelay's answer: %s", paid).isEqualTo(200);
    await().atMost(WAIT).until(() -> payrelay.granted(paymentId) == 1);
    var order = dsl.fetchSingle(PAYMENT_ORDER, PAYMENT_ORDER.PAYMENT_ID.eq(paymentId));
    assertThat(order.getMerchantId()).isEqualTo(TENANT_MCH_ID);
    assertThat(order.getChannelTxnId())
        .isEqualTo(tenantWechatPay.transactionId(paymentId).orElseThrow());
    WebhookInboxRecord inbox = latestInbox();
    assertThat(inbox.getOutcome()).isEqualTo("CONFIRMED");
    assertThat(inbox.getPaymentId()).isEqualTo(paymentId);
  }

  @Test
  void otherTenantsPayment_staysAtTheDefaultMerchant() throws Exception {
    String paymentId = create("globex", 800);

    assertThat(tenantWechatPay.tradeState(paymentId)).isEmpty();
    assertThat(payrelay.stack.simulators().wechatpay().orElseThrow().tradeState(paymentId))
        .contains("NOTPAY");
    assertThat(payrelay.status(paymentId)).isEqualTo("PENDING");
    assertThat(
            dsl.fetchSingle(PAYMENT_ORDER, PAYMENT_ORDER.PAYMENT_ID.eq(paymentId)).getMerchantId())
        .isEqualTo(ChannelSimulators.WECHATPAY_MCH_ID);
  }

  @Test
  void tenantsNotification_atTheDefaultAccountsUrls_isRefused_andRecorded() throws Exception {
    String paymentId = create(TENANT, 500);
    SimulatedWechatNotification genuine =
        tenantWechatPay.signedNotification(
            "TRANSACTION.SUCCESS",
            "transaction",
            """
            {"mchid":"%s","appid":"%s","out_trade_no":"%s","transaction_id":"4200000000000001",
             "trade_state":"SUCCESS","amount":{"total":500,"payer_total":500,"currency":"CNY"}}
            """
                .formatted(TENANT_MCH_ID, TENANT_APP_ID, paymentId));

    for (String path :
        new String[] {"wechatpay", "wechatpay/" + ChannelSimulators.WECHATPAY_MCH_ID}) {
      HttpResponse<String> answer =
          payrelay.postWebhook(path, genuine.rawBody(), genuine.headers());
      assertThat(answer.statusCode()).as(path + ": " + answer.body()).isEqualTo(401);
      assertThat(JSON.readTree(answer.body()).path("code").asText()).isEqualTo("FAIL");
      assertThat(latestInbox().getSignatureValid()).isFalse();
    }
    HttpResponse<String> unknownAccount =
        payrelay.postWebhook("wechatpay/1900009999", genuine.rawBody(), genuine.headers());
    assertThat(unknownAccount.statusCode()).isEqualTo(401);
    assertThat(latestInbox().getOutcome()).isEqualTo("UNKNOWN_ACCOUNT");
    assertThat(payrelay.status(paymentId)).isEqualTo("PENDING");
  }

  @Test
  void tenantsPaymentWithoutNotification_isConfirmedByTheWorkflowsQueryAtItsOwnMerchant()
      throws Exception {
    String paymentId = create(TENANT, 700);
    // Encrypted under another key, the notification is refused: only the query can confirm.
    tenantWechatPay.setApiV3Key("ZZZZZZZZZZabcdefghijABCDEFGHIJ01");
    SimulatedWechatNotification lost;
    try {
      lost = tenantWechatPay.pay(paymentId);
    } finally {
      tenantWechatPay.setApiV3Key(TENANT_API_V3_KEY);
    }
    assertThat(lost.httpStatus()).isEqualTo(401);

    await().atMost(WAIT).until(() -> "PAID".equals(payrelay.status(paymentId)));
    String source =
        JSON.readTree(
                dsl.fetchSingle(
                        OUTBOX_EVENT,
                        OUTBOX_EVENT
                            .AGGREGATE_ID
                            .eq(paymentId)
                            .and(OUTBOX_EVENT.EVENT_TYPE.eq("PaymentConfirmed")))
                    .getPayload())
            .path("source")
            .asText();
    assertThat(source).isEqualTo("QUERY");
  }

  private static String create(String tenant, long fen) throws Exception {
    return payrelay
        .createPaymentAt("wechatpay", tenant, "o-" + UUID.randomUUID(), fen, "CNY", "c1")
        .path("payment")
        .path("paymentId")
        .asText();
  }

  private static WebhookInboxRecord latestInbox() {
    return dsl.selectFrom(WEBHOOK_INBOX)
        .where(WEBHOOK_INBOX.CHANNEL.eq("wechatpay"))
        .orderBy(WEBHOOK_INBOX.ID.desc())
        .limit(1)
        .fetchSingle();
  }
}

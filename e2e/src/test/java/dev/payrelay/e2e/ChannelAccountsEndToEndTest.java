package dev.payrelay.e2e;

import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;
import static dev.payrelay.ledger.db.generated.Tables.WEBHOOK_INBOX;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payrelay.channels.sandbox.SandboxNotification;
import dev.payrelay.channels.sandbox.SandboxSignature;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Channel accounts per tenant, end to end on the dev stack: each payment is created with its
 * tenant's merchant account, the sandbox signs its callbacks with that account's secret, and a
 * callback signed with another account's secret is refused (401) and recorded as rejected.
 */
class ChannelAccountsEndToEndTest {

  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final String SECRET_B = "tenant-b-secret-from-env-0123456789";
  private static final String SECRET_C = "tenant-c-secret-from-file-0123456789";
  private static final ListAppender<ILoggingEvent> LOGS = new ListAppender<>();
  private static PayrelayHarness payrelay;
  private static DSLContext dsl;

  @BeforeAll
  static void start() throws Exception {
    Logger root =
        ((LoggerContext) LoggerFactory.getILoggerFactory())
            .getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    LOGS.start();
    root.addAppender(LOGS);
    Path dir = Files.createDirectories(Path.of("target", "channel-accounts"));
    Path secretC = dir.resolve("tenant-c.secret");
    Files.writeString(secretC, SECRET_C + "\n");
    Path accounts = dir.resolve("accounts.json");
    Files.writeString(
        accounts,
        """
        {"accounts": [
          {"channel": "sandbox", "merchantId": "m_tenant_b", "tenants": ["tb"],
           "secretEnv": "ACCOUNTS_TEST_SECRET_B"},
          {"channel": "sandbox", "merchantId": "m_tenant_c", "tenants": ["tc", "tc-eu"],
           "secretFile": "%s"}
        ]}
        """
            .formatted(secretC.toAbsolutePath()));
    Map<String, String> env = new HashMap<>();
    env.put("PAYRELAY_CHANNEL_ACCOUNTS_FILE", accounts.toString());
    env.put("ACCOUNTS_TEST_SECRET_B", SECRET_B);
    payrelay = new PayrelayHarness(ChannelAccountsEndToEndTest.class, env);
    dsl = payrelay.stack.services().database().dsl();
  }

  @AfterAll
  static void stop() throws Exception {
    try {
      payrelay.close();
    } finally {
      ((LoggerContext) LoggerFactory.getILoggerFactory())
          .getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)
          .detachAppender(LOGS);
    }
  }

  @Test
  void eachTenantsPayment_isCreatedWithItsAccount_andPaidThroughCallbacksSignedWithIt()
      throws Exception {
    String ofDefault = payrelay.createPayment("t1", 1000, "USD", "c1");
    String ofB = payrelay.createPayment("tb", 1100, "USD", "c1");
    String ofC = payrelay.createPayment("tc-eu", 1200, "USD", "c1");

    assertThat(merchant(ofDefault)).isEqualTo("m_payrelay_dev");
    assertThat(merchant(ofB)).isEqualTo("m_tenant_b");
    assertThat(merchant(ofC)).isEqualTo("m_tenant_c");
    for (String paymentId : List.of(ofDefault, ofB, ofC)) {
      assertThat(payrelay.payAtSandbox(paymentId, "{}").statusCode()).isEqualTo(200);
    }
    for (String paymentId : List.of(ofDefault, ofB, ofC)) {
      await().atMost(WAIT).until(() -> "PAID".equals(status(paymentId)));
    }
  }

  @Test
  void tenantBsCallback_signedWithTheDefaultAccountsSecret_isRefused_andRecordedAsRejected()
      throws Exception {
    String ofB = payrelay.createPayment("tb", 700, "USD", "c1");

    // The harness signs with the default account's secret; the body names tenant B's merchant.
    HttpResponse<String> forged =
        post(signed(paid(ofB, "m_tenant_b", "sbx_forged_" + ofB), PayrelayHarness.SECRET));

    assertThat(forged.statusCode()).isEqualTo(401);
    Record inbox = inboxRow(forged);
    assertThat(inbox.get(WEBHOOK_INBOX.OUTCOME)).isEqualTo("BAD_SIGNATURE");
    assertThat(inbox.get(WEBHOOK_INBOX.SIGNATURE_VALID)).isFalse();
    assertThat(inbox.get(WEBHOOK_INBOX.HTTP_STATUS)).isEqualTo(401);
    assertThat(status(ofB)).isEqualTo("PENDING");
  }

  @Test
  void tenantBsCallback_signedWithTenantCsSecret_isRefused() throws Exception {
    String ofB = payrelay.createPayment("tb", 800, "USD", "c1");

    HttpResponse<String> forged = post(signed(paid(ofB, "m_tenant_c", "sbx_c_" + ofB), SECRET_C));
    HttpResponse<String> own = post(signed(paid(ofB, "m_tenant_b", "sbx_b_" + ofB), SECRET_B));

    assertThat(forged.statusCode()).isEqualTo(401);
    assertThat(inboxRow(forged).get(WEBHOOK_INBOX.OUTCOME)).isEqualTo("BAD_SIGNATURE");
    assertThat(own.statusCode()).as(own.body()).isEqualTo(200);
    assertThat(own.body()).contains("CONFIRMED");
  }

  @Test
  void aDefaultTenantsCallback_signedWithTenantBsSecret_isRefused() throws Exception {
    String ofDefault = payrelay.createPayment("t1", 900, "USD", "c1");

    HttpResponse<String> forged =
        post(signed(paid(ofDefault, "m_payrelay_dev", "sbx_x_" + ofDefault), SECRET_B));

    assertThat(forged.statusCode()).isEqualTo(401);
    assertThat(status(ofDefault)).isEqualTo("PENDING");
  }

  @Test
  void noAccountsSecret_appearsInTheLogs() throws Exception {
    String ofB = payrelay.createPayment("tb", 600, "USD", "c1");
    post(signed(paid(ofB, "m_tenant_b", "sbx_log_" + ofB), PayrelayHarness.SECRET));
    assertThat(payrelay.payAtSandbox(ofB, "{}").statusCode()).isEqualTo(200);
    await().atMost(WAIT).until(() -> "PAID".equals(status(ofB)));

    List<String> lines =
        List.copyOf(LOGS.list).stream()
            .map(
                e ->
                    e.getFormattedMessage()
                        + (e.getThrowableProxy() == null
                            ? ""
                            : ThrowableProxyUtil.asString(e.getThrowableProxy())))
            .toList();
    assertThat(lines).anyMatch(l -> l.contains(ofB));
    assertThat(String.join("\n", lines))
        .doesNotContain(SECRET_B)
        .doesNotContain(SECRET_C)
        .doesNotContain(PayrelayHarness.SECRET);
    assertThat(payrelay.config.toString())
        .contains("m_tenant_b")
        .doesNotContain(SECRET_B)
        .doesNotContain(SECRET_C)
        .doesNotContain(PayrelayHarness.SECRET);
  }

  private static SandboxNotification paid(String paymentId, String merchant, String txn) {
    return new SandboxNotification(
        "ntf_" + txn, merchant, paymentId, txn, payAmount(paymentId), "USD", "PAID", Instant.now());
  }

  private static String payAmount(String paymentId) {
    long minor =
        dsl.select(PAYMENT_ORDER.AMOUNT_MINOR)
            .from(PAYMENT_ORDER)
            .where(PAYMENT_ORDER.PAYMENT_ID.eq(paymentId))
            .fetchOne(PAYMENT_ORDER.AMOUNT_MINOR);
    return "%d.%02d".formatted(minor / 100, minor % 100);
  }

  private static PayrelayHarness.SignedCallback signed(SandboxNotification n, String secret) {
    byte[] raw = n.toJson();
    Map<String, String> headers =
        new HashMap<>(
            new SandboxSignature(secret, Duration.ofMinutes(5), Clock.systemUTC()).headersFor(raw));
    headers.put("Content-Type", "application/json");
    return new PayrelayHarness.SignedCallback(raw, headers);
  }

  private static HttpResponse<String> post(PayrelayHarness.SignedCallback cb) throws Exception {
    return payrelay.postWebhook(cb.raw(), cb.headers());
  }

  private static Record inboxRow(HttpResponse<String> answer) throws Exception {
    long inboxId = new ObjectMapper().readTree(answer.body()).path("inboxId").asLong();
    return dsl.fetchOne(WEBHOOK_INBOX, WEBHOOK_INBOX.ID.eq(inboxId));
  }

  private static String merchant(String paymentId) {
    return dsl.select(PAYMENT_ORDER.MERCHANT_ID)
        .from(PAYMENT_ORDER)
        .where(PAYMENT_ORDER.PAYMENT_ID.eq(paymentId))
        .fetchOne(PAYMENT_ORDER.MERCHANT_ID);
  }

  private static String status(String paymentId) {
    return dsl.select(PAYMENT_ORDER.STATUS)
        .from(PAYMENT_ORDER)
        .where(PAYMENT_ORDER.PAYMENT_ID.eq(paymentId))
        .fetchOne(PAYMENT_ORDER.STATUS);
  }
}

package dev.payrelay.api;

import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;
import static dev.payrelay.ledger.db.generated.Tables.WEBHOOK_INBOX;
import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.api.http.ApiServer;
import dev.payrelay.channels.sandbox.SandboxSignature;
import dev.payrelay.domain.Money;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.testing.Payments;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Input for money is read one way only (real MariaDB behind the API): a signed body with a repeated
 * key or something after its JSON value is MALFORMED, since two parsers would read it differently;
 * a payment cannot ask for more than a billion major units; an oversized create body is a 413.
 */
class StrictMoneyInputTest {

  private static TestApi api;
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @BeforeAll
  static void start() {
    api = new TestApi(StrictMoneyInputTest.class, false);
  }

  @AfterAll
  static void stop() {
    api.close();
  }

  @Test
  void aSignedCallbackWithARepeatedAmount_orBytesAfterItsObject_isMalformed_andPaysNothing()
      throws Exception {
    PaymentRow p =
        api.payments.create(Payments.newPayment(Money.parse("100.00", "USD"), "c1")).payment();
    String fields =
        "\"notification_id\":\"n-%s\",\"merchant_id\":\"%s\",\"payment_id\":\"%s\","
            + "\"channel_txn_id\":\"t-%s\",\"currency\":\"USD\",\"status\":\"PAID\","
            + "\"paid_at\":\"%s\"";
    String common =
        fields.formatted(
            p.paymentId(), TestApi.MERCHANT, p.paymentId(), p.paymentId(), Instant.now());
    String repeated = "{" + common + ",\"amount\":\"0.01\",\"amount\":\"100.00\"}";
    String trailing = "{" + common + ",\"amount\":\"100.00\"}{\"amount\":\"0.01\"}";

    for (String body : new String[] {repeated, trailing}) {
      HttpResponse<String> r = webhook(body.getBytes(StandardCharsets.UTF_8));

      assertThat(r.statusCode()).as(body + " -> " + r.body()).isEqualTo(400);
      assertThat(latestInboxOutcome()).isEqualTo("MALFORMED");
    }
    assertThat(api.payments.find(p.paymentId()).orElseThrow().status().name()).isEqualTo("PENDING");
  }

  @Test
  void aCreateWithARepeatedKey_orTrailingContent_isRefused() throws Exception {
    String body = create("o-dup", 100);
    String repeated = body.replace("\"amountMinor\":100", "\"amountMinor\":100,\"amountMinor\":1");
    String trailing = body + "{}";

    for (String bad : new String[] {repeated, trailing}) {
      HttpResponse<String> r = api.send("POST", false, "/v1/payments", bad, api.admin.token());

      assertThat(r.statusCode()).as(bad + " -> " + r.body()).isEqualTo(400);
    }
    assertThat(api.dsl.fetchCount(PAYMENT_ORDER, PAYMENT_ORDER.ORDER_ID.eq("o-dup"))).isZero();
  }

  @Test
  void anAmountAboveABillionMajorUnits_isRefused_whileTheCeilingItselfIsTaken() throws Exception {
    long ceiling = Money.maxPaymentMinorUnits(Money.currency("USD"));

    HttpResponse<String> over =
        api.send("POST", false, "/v1/payments", create("o-over", ceiling + 1), api.admin.token());
    HttpResponse<String> at =
        api.send("POST", false, "/v1/payments", create("o-at", ceiling), api.admin.token());

    assertThat(ceiling).isEqualTo(100_000_000_000L);
    assertThat(over.statusCode()).as(over.body()).isEqualTo(400);
    assertThat(over.body()).contains("amountMinor must be at most 100000000000 for USD");
    // Accepted and stored; the sandbox is unreachable here, so the client is told to retry (502).
    assertThat(at.statusCode()).as(at.body()).isEqualTo(502);
    assertThat(api.dsl.fetchCount(PAYMENT_ORDER, PAYMENT_ORDER.ORDER_ID.eq("o-at"))).isEqualTo(1);
    assertThat(api.dsl.fetchCount(PAYMENT_ORDER, PAYMENT_ORDER.ORDER_ID.eq("o-over"))).isZero();
    assertThat(Money.maxPaymentMinorUnits(Money.currency("JPY"))).isEqualTo(1_000_000_000L);
    assertThat(Money.maxPaymentMinorUnits(Money.currency("KWD"))).isEqualTo(1_000_000_000_000L);
  }

  @Test
  void aCreateBodyOverTheSizeLimit_is413_notMalformed() throws Exception {
    String body = create("o-big", 100);
    String padded =
        body.replace(
            "\"channel\"",
            "\"pad\":\"" + "x".repeat(ApiServer.MAX_REQUEST_BYTES) + "\",\"channel\"");

    HttpResponse<String> r = api.send("POST", false, "/v1/payments", padded, api.admin.token());

    assertThat(r.statusCode()).as(r.body()).isEqualTo(413);
  }

  private static String create(String orderId, long minor) {
    return ("{\"tenantId\":\"t\",\"orderId\":\"%s\",\"userId\":\"u\",\"amountMinor\":%d,"
            + "\"currency\":\"USD\",\"courseIds\":[\"c1\"],\"channel\":\"sandbox\"}")
        .formatted(orderId, minor);
  }

  private static HttpResponse<String> webhook(byte[] raw) throws Exception {
    Map<String, String> headers =
        new HashMap<>(
            new SandboxSignature(TestApi.SECRET, Duration.ofMinutes(5), Clock.systemUTC())
                .headersFor(raw));
    headers.put("Content-Type", "application/json");
    HttpRequest.Builder b =
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + api.server.port() + "/v1/webhooks/sandbox"))
            .POST(HttpRequest.BodyPublishers.ofByteArray(raw));
    headers.forEach(b::header);
    return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String latestInboxOutcome() {
    return api.dsl
        .select(WEBHOOK_INBOX.OUTCOME)
        .from(WEBHOOK_INBOX)
        .orderBy(WEBHOOK_INBOX.ID.desc())
        .limit(1)
        .fetchSingle(WEBHOOK_INBOX.OUTCOME);
  }
}

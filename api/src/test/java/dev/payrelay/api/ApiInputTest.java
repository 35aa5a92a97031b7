package dev.payrelay.api;

import static dev.payrelay.sql.generated.Tables.PAYMENT_ORDER;
import static dev.payrelay.sql.generated.Tables.WEBHOOK_INBOX;
import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.channels.sandbox.SandboxChannel;
import dev.payrelay.channels.sandbox.SandboxChannelConfig;
import dev.payrelay.channels.sandbox.SandboxNotification;
import dev.payrelay.channels.sandbox.SandboxSignature;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.sql.EntitlementStore;
import dev.payrelay.sql.OutboxStore;
import dev.payrelay.sql.OutboxWriter;
import dev.payrelay.sql.PaymentLedger;
import dev.payrelay.sql.PaymentRow;
import dev.payrelay.sql.PaymentStore;
import dev.payrelay.sql.WebhookInboxStore;
import dev.payrelay.sql.testing.Payments;
import dev.payrelay.sql.testing.TestDatabase;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Bad input at the HTTP edge gets a clear 4xx (never a 500) and, for webhooks, is still recorded in
 * the inbox. Real MariaDB; the channel is never reached by these requests.
 */
class ApiInputTest {

  private static final String SECRET = "api-input-secret";
  private static final String MERCHANT = Payments.MERCHANT;

  private static TestDatabase db;
  private static DSLContext dsl;
  private static PaymentStore payments;
  private static ApiServer api;
  private static final HttpClient http = HttpClient.newHttpClient();

  @BeforeAll
  static void start() {
    db = TestDatabase.create(ApiInputTest.class);
    dsl = db.database().dsl();
    OutboxWriter writer = new OutboxWriter(new EventJson());
    payments = new PaymentStore(dsl, writer);
    SandboxChannel sandbox =
        new SandboxChannel(
            new SandboxChannelConfig(
                URI.create("http://127.0.0.1:9"),
                MERCHANT,
                SECRET,
                URI.create("http://127.0.0.1:9/v1/webhooks/sandbox"),
                Duration.ofMinutes(5),
                Duration.ofSeconds(1)),
            Clock.systemUTC(),
            HttpClient.newHttpClient());
    ChannelRegistry channels = new ChannelRegistry(List.of(sandbox));
    PrometheusMeterRegistry metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    api =
        new ApiServer(
                new PaymentService(payments, channels, MERCHANT, Duration.ofMinutes(30), () -> {}),
                new PaymentQueries(
                    payments, new OutboxStore(dsl), new EntitlementStore(dsl, payments)),
                new WebhookService(
                    new WebhookInboxStore(dsl),
                    new PaymentLedger(dsl, payments, writer),
                    channels,
                    metrics,
                    Clock.systemUTC(),
                    () -> {}),
                metrics,
                () -> true)
            .start("127.0.0.1", 0);
  }

  @AfterAll
  static void stop() {
    api.close();
    db.close();
  }

  @Test
  void fractionalStringOrExponentAmount_isRejected_notTruncated() throws Exception {
    for (String amount : List.of("19.99", "\"1999\"", "1e3", "-5", "0")) {
      HttpResponse<String> r =
          createPayment(
              "{\"tenantId\":\"t\",\"orderId\":\"o\",\"userId\":\"u\",\"amountMinor\":"
                  + amount
                  + ",\"currency\":\"USD\",\"courseIds\":[\"c\"],\"channel\":\"sandbox\"}",
              null);
      assertThat(r.statusCode()).as(amount).isEqualTo(400);
    }
    assertThat(dsl.fetchCount(PAYMENT_ORDER, PAYMENT_ORDER.ORDER_ID.eq("o"))).isZero();
  }

  @Test
  void nullBodyUnknownFieldTooLongTenantAndBlankIdempotencyKey_areClear400s() throws Exception {
    String valid =
        "{\"tenantId\":\"t\",\"orderId\":\"o\",\"userId\":\"u\",\"amountMinor\":100,\"currency\":\"USD\",\"courseIds\":[\"c\"],\"channel\":\"sandbox\"}";
    assertThat(createPayment("null", null).statusCode()).isEqualTo(400);
    assertThat(createPayment("{\"amount\":100}", null).statusCode()).isEqualTo(400);
    assertThat(createPayment(valid.replace("\"t\"", "\"" + "t".repeat(65) + "\""), null).body())
        .contains("tenantId must be 1..64");
    HttpResponse<String> blankKey = createPayment(valid, " ");
    assertThat(blankKey.statusCode()).isEqualTo(400);
    assertThat(blankKey.body()).contains("Idempotency-Key");
    assertThat(dsl.fetchCount(PAYMENT_ORDER, PAYMENT_ORDER.ORDER_ID.eq("o"))).isZero();
  }

  @Test
  void overlongIdsInASignedCallback_areMalformed_andRecorded() throws Exception {
    SandboxNotification n =
        new SandboxNotification(
            "n".repeat(200), MERCHANT, "p1", "t1", "1.00", "USD", "PAID", Instant.now());
    HttpResponse<String> r = webhook("sandbox", n.toJson(), signed(n.toJson()));

    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(dsl.fetchCount(WEBHOOK_INBOX, WEBHOOK_INBOX.OUTCOME.eq("MALFORMED"))).isEqualTo(1);
  }

  @Test
  void unknownChannelWithALongName_is404_andStillRecorded() throws Exception {
    String channel = "c".repeat(40);
    HttpResponse<String> r = webhook(channel, "{}".getBytes(), Map.of());

    assertThat(r.statusCode()).isEqualTo(404);
    assertThat(dsl.fetchCount(WEBHOOK_INBOX, WEBHOOK_INBOX.OUTCOME.eq("UNKNOWN_CHANNEL")))
        .isEqualTo(1);
  }

  @Test
  void paymentIdInAnotherCase_isUnknown_andNeverConfirmsOurs() throws Exception {
    PaymentRow p = payments.create(Payments.newPayment(Money.parse("1.00", "USD"), "c1")).payment();
    SandboxNotification n =
        new SandboxNotification(
            "n-case",
            MERCHANT,
            p.paymentId().toUpperCase(),
            "t-case",
            "1.00",
            "USD",
            "PAID",
            Instant.now());

    HttpResponse<String> r = webhook("sandbox", n.toJson(), signed(n.toJson()));

    assertThat(r.statusCode()).isEqualTo(503);
    assertThat(r.body()).contains("UNKNOWN_PAYMENT");
    assertThat(payments.find(p.paymentId()).orElseThrow().status().name()).isEqualTo("PENDING");
  }

  @Test
  void credentialsInHeaders_areNotStored() throws Exception {
    Map<String, String> headers = new HashMap<>(Map.of("Authorization", "Bearer top-secret"));
    webhook("sandbox", "{}".getBytes(), headers);
    List<String> stored =
        dsl.select(WEBHOOK_INBOX.HEADERS).from(WEBHOOK_INBOX).fetch(WEBHOOK_INBOX.HEADERS);
    assertThat(stored).noneMatch(h -> h.contains("top-secret"));
    assertThat(stored).anyMatch(h -> h.contains("[redacted]"));
  }

  @Test
  void idempotencyKeyReusedWithCoursesThatOnlyConcatenateAlike_isAConflict() throws Exception {
    String body =
        "{\"tenantId\":\"t\",\"orderId\":\"o-idem\",\"userId\":\"u\",\"amountMinor\":100,"
            + "\"currency\":\"USD\",\"courseIds\":%s,\"channel\":\"sandbox\"}";
    HttpResponse<String> first = createPayment(body.formatted("[\"a\\u001eb\"]"), "key-1");
    HttpResponse<String> second = createPayment(body.formatted("[\"a\",\"b\"]"), "key-1");

    // The channel is unreachable here: the payment is stored, the client is told to retry (502).
    assertThat(first.statusCode()).isEqualTo(502);
    assertThat(second.statusCode()).isEqualTo(422);
    assertThat(dsl.fetchCount(PAYMENT_ORDER, PAYMENT_ORDER.ORDER_ID.eq("o-idem"))).isEqualTo(1);
  }

  private static Map<String, String> signed(byte[] raw) {
    return new SandboxSignature(SECRET, Duration.ofMinutes(5), Clock.systemUTC()).headersFor(raw);
  }

  private static HttpResponse<String> createPayment(String body, String idempotencyKey)
      throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + api.port() + "/v1/payments"))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (idempotencyKey != null) {
      b.header("Idempotency-Key", idempotencyKey);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static HttpResponse<String> webhook(
      String channel, byte[] body, Map<String, String> headers) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + api.port() + "/v1/webhooks/" + channel))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    headers.forEach(b::header);
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }
}

package dev.payrelay.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.payrelay.api.auth.ApiKeys;
import dev.payrelay.api.auth.Role;
import dev.payrelay.api.http.ApiServer;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.ResolutionAction;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.VerifiedCallback;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.ledger.operator.OperatorDecision;
import dev.payrelay.ledger.operator.PaymentResolutions;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.payment.PaymentLedger;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.testing.Payments;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code POST/GET /v1/payments/{id}/refunds} and {@code GET /v1/refunds/{id}} on real MariaDB. */
class RefundApiTest {

  private static final ApiKeys.Issued OPERATOR = ApiKeys.issue(Role.OPERATE, "olga", Set.of("t1"));
  private static final ApiKeys.Issued OTHER = ApiKeys.issue(Role.OPERATE, "otto", Set.of("t2"));
  private static final ApiKeys.Issued READER = ApiKeys.issue(Role.READ, "rita", Set.of("t1"));

  private static TestApi api;
  private static PaymentLedger ledger;

  @BeforeAll
  static void start() {
    api = new TestApi(RefundApiTest.class, false, OPERATOR, OTHER, READER);
    ledger = new PaymentLedger(api.dsl, api.payments, new OutboxWriter(new EventJson()));
  }

  @AfterAll
  static void stop() {
    api.close();
  }

  @Test
  void create_isCreated_thenTheSameKeyAndBodyAnswersTheSameRefund_andAnotherBodyIs409()
      throws Exception {
    String paymentId = paid().paymentId();
    String key = "k-" + UUID.randomUUID();

    HttpResponse<String> first = refund(paymentId, body(300, "late delivery"), key, OPERATOR);
    HttpResponse<String> again = refund(paymentId, body(300, "late delivery"), key, OPERATOR);
    HttpResponse<String> other = refund(paymentId, body(301, "late delivery"), key, OPERATOR);

    assertThat(first.statusCode()).isEqualTo(201);
    JsonNode created = json(first);
    assertThat(created.path("state").asText()).isEqualTo("REQUESTED");
    assertThat(created.path("amount").path("minorUnits").asLong()).isEqualTo(300);
    assertThat(created.path("requestedBy").asText()).contains("olga");
    assertThat(created.path("origin").asText()).isEqualTo("API");
    assertThat(again.statusCode()).isEqualTo(200);
    assertThat(json(again).path("refundId")).isEqualTo(created.path("refundId"));
    assertThat(other.statusCode()).isEqualTo(409);
    assertThat(Payments.events(api.dsl, paymentId, "RefundRequested")).isEqualTo(1);

    HttpResponse<String> list = get("/v1/payments/" + paymentId + "/refunds", READER);
    assertThat(list.statusCode()).isEqualTo(200);
    assertThat(json(list).path("refunds")).hasSize(1);
    HttpResponse<String> one = get("/v1/refunds/" + created.path("refundId").asText(), READER);
    assertThat(one.statusCode()).isEqualTo(200);
    assertThat(json(one).path("refundNo")).isEqualTo(created.path("refundNo"));
  }

  @Test
  void withoutIdempotencyKey_is400_overRefund_andUnpaid_are409_withTheReason() throws Exception {
    String paymentId = paid().paymentId();
    PaymentRow pending =
        api.payments.create(Payments.newPayment(Money.ofMinor(1050, "USD"), "c1")).payment();

    assertThat(refund(paymentId, body(100, "r"), null, OPERATOR).statusCode()).isEqualTo(400);
    assertThat(refund(paymentId, body(0, "r"), key(), OPERATOR).statusCode()).isEqualTo(400);
    HttpResponse<String> over = refund(paymentId, body(1051, "r"), key(), OPERATOR);
    assertThat(over.statusCode()).isEqualTo(409);
    assertThat(json(over).path("error").asText()).contains("1051", "captured 1050 USD");
    HttpResponse<String> unpaid = refund(pending.paymentId(), body(100, "r"), key(), OPERATOR);
    assertThat(unpaid.statusCode()).isEqualTo(409);
    assertThat(json(unpaid).path("error").asText()).contains("PENDING");
    assertThat(refund(paymentId, body(100, "r"), key(), READER).statusCode()).isEqualTo(403);
  }

  @Test
  void afterAcceptingEightOfTen_aRefundOfEightIsCreated_andTwoMoreIs409NamingTheCapture()
      throws Exception {
    PaymentRow p =
        api.payments.create(Payments.newPayment(Money.ofMinor(1000, "USD"), "c1")).payment();
    ledger.apply(
        new VerifiedCallback(
            "n-" + p.paymentId(),
            p.merchantId(),
            p.paymentId(),
            "t-" + p.paymentId(),
            Money.ofMinor(800, "USD"),
            ChannelPaymentStatus.PAID),
        null,
        PaymentLedger.CALLBACK);
    new PaymentResolutions(api.dsl, api.payments, new OutboxWriter(new EventJson()))
        .resolve(
            new OperatorDecision(
                p.paymentId(), "olga", "buyer paid 8.00", ResolutionAction.ACCEPT_AS_PAID));

    HttpResponse<String> eight = refund(p.paymentId(), body(800, "all"), key(), OPERATOR);
    HttpResponse<String> two = refund(p.paymentId(), body(200, "more"), key(), OPERATOR);

    assertThat(eight.statusCode()).as(eight.body()).isEqualTo(201);
    assertThat(json(eight).path("amount").path("minorUnits").asLong()).isEqualTo(800);
    assertThat(two.statusCode()).as(two.body()).isEqualTo(409);
    assertThat(json(two).path("error").asText())
        .contains("refund of 200 would exceed the captured 800 USD")
        .contains("0 refundable");
  }

  @Test
  void anotherTenantsPaymentAndRefund_areAnsweredLikeMissingOnes() throws Exception {
    String paymentId = paid().paymentId();
    String refundId =
        json(refund(paymentId, body(100, "r"), key(), OPERATOR)).path("refundId").asText();

    assertThat(refund(paymentId, body(100, "r"), key(), OTHER).statusCode()).isEqualTo(404);
    assertThat(get("/v1/payments/" + paymentId + "/refunds", OTHER).statusCode()).isEqualTo(404);
    assertThat(get("/v1/refunds/" + refundId, OTHER).statusCode()).isEqualTo(404);
    assertThat(get("/v1/refunds/rfd_missing", READER).statusCode()).isEqualTo(404);
    assertThat(refund("pay_missing", body(100, "r"), key(), OPERATOR).statusCode()).isEqualTo(404);
  }

  private static PaymentRow paid() {
    return Payments.paid(api.payments, ledger, Money.ofMinor(1050, "USD"), "c1");
  }

  private static String key() {
    return "k-" + UUID.randomUUID();
  }

  private static String body(long amountMinor, String reason) {
    return "{\"amountMinor\":%d,\"reason\":\"%s\"}".formatted(amountMinor, reason);
  }

  static HttpResponse<String> refund(
      String paymentId, String body, String key, ApiKeys.Issued caller) throws Exception {
    Map<String, String> headers = new HashMap<>(Map.of("Content-Type", "application/json"));
    headers.put("Authorization", "Bearer " + caller.token());
    if (key != null) {
      headers.put("Idempotency-Key", key);
    }
    return api.request(
        "POST",
        false,
        "/v1/payments/" + paymentId + "/refunds",
        body.getBytes(StandardCharsets.UTF_8),
        headers);
  }

  private static HttpResponse<String> get(String path, ApiKeys.Issued caller) throws Exception {
    return api.send("GET", false, path, null, caller.token());
  }

  private static JsonNode json(HttpResponse<String> r) throws Exception {
    return ApiServer.jsonMapper().readTree(r.body());
  }
}

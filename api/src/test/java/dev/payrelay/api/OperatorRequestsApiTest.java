package dev.payrelay.api;

import static dev.payrelay.ledger.db.generated.Tables.OPERATOR_ACTION;
import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.api.auth.ApiKeys;
import dev.payrelay.api.auth.Role;
import dev.payrelay.api.http.ApiServer;
import dev.payrelay.channels.sandbox.SandboxNotification;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.operator.SignalTokens;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.workflows.OperatorSignal;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /v1/admin/payments/{id}/requery} and {@code .../extend-deadline}: role operate,
 * tenant-scoped, refusals audited as REJECTED, and the signal carries a token for the caller's
 * operator (and, for an extension, that very deadline). Real MariaDB; signals are recorded, not
 * sent (the workflow's side is in e2e's {@code OperatorRequestsEndToEndTest}).
 */
class OperatorRequestsApiTest {

  private static final ApiKeys.Issued OPERATOR = ApiKeys.issue(Role.OPERATE, "olga", Set.of("t1"));
  private static final ApiKeys.Issued READER = ApiKeys.issue(Role.READ, "rita", Set.of("t1"));
  private static final ApiKeys.Issued OTHER_TENANT =
      ApiKeys.issue(Role.OPERATE, "otto", Set.of("t2"));

  private static TestApi api;

  @BeforeAll
  static void start() {
    api = new TestApi(OperatorRequestsApiTest.class, true, OPERATOR, READER, OTHER_TENANT);
  }

  @AfterAll
  static void stop() {
    api.close();
  }

  private static PaymentRow payment() {
    return api.payments.create(Payments.newPayment(Money.parse("1.00", "USD"), "c1")).payment();
  }

  private static HttpResponse<String> post(
      PaymentRow p, String route, String body, ApiKeys.Issued key) throws Exception {
    return api.send(
        "POST", true, "/v1/admin/payments/" + p.paymentId() + "/" + route, body, key.token());
  }

  private static <T> T lastSignal(Class<T> type) {
    List<Object> all = api.signals.signals;
    return type.cast(all.stream().filter(type::isInstance).reduce((a, b) -> b).orElseThrow());
  }

  private static int rejected(PaymentRow p, String action) {
    return api.dsl.fetchCount(
        OPERATOR_ACTION,
        OPERATOR_ACTION
            .TARGET_ID
            .eq(p.paymentId())
            .and(OPERATOR_ACTION.ACTION.eq(action))
            .and(OPERATOR_ACTION.RESULT.eq("REJECTED")));
  }

  @Test
  void requery_ofAPendingPayment_signalsWithATokenForTheCallersOperator() throws Exception {
    PaymentRow p = payment();

    HttpResponse<String> r =
        post(p, "requery", "{\"reason\":\"buyer says paid\",\"operator\":\"mallory\"}", OPERATOR);

    assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
    assertThat(r.body())
        .contains("\"operator\":\"olga\"")
        .contains("\"action\":\"REQUERY\"")
        .contains("payment-" + p.paymentId())
        .contains("the channel query was asked; this answer does not carry the channel's answer")
        .contains("GET /v1/payments/" + p.paymentId());
    assertThat(api.signals.sent).contains("requery " + p.paymentId() + " olga");
    OperatorSignal sent = lastSignal(OperatorSignal.class);
    assertThat(sent.reason()).isEqualTo("buyer says paid");
    assertThat(
            TestApi.TOKENS
                .verify(sent.token(), "payment-" + p.paymentId(), "REQUERY", p.paymentId())
                .grant()
                .operator())
        .isEqualTo("olga");
  }

  @Test
  void extendDeadline_by_movesTheCurrentDeadline_andTheTokenVouchesForThatDeadline()
      throws Exception {
    PaymentRow p = payment();
    Instant exact = p.expiresAt().plus(Duration.ofMinutes(30));
    Instant down = exact.truncatedTo(ChronoUnit.SECONDS);
    Instant expected = down.equals(exact) ? exact : down.plusSeconds(1);

    HttpResponse<String> r =
        post(p, "extend-deadline", "{\"by\":\"30m\",\"reason\":\"bank holiday\"}", OPERATOR);

    assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
    assertThat(ApiServer.jsonMapper().readTree(r.body()).path("until").asText())
        .isEqualTo(expected.toString());
    OperatorSignal sent = lastSignal(OperatorSignal.class);
    assertThat(sent.until()).isEqualTo(expected.toString());
    assertThat(
            TestApi.TOKENS
                .verify(
                    sent.token(),
                    "payment-" + p.paymentId(),
                    "EXTEND_DEADLINE",
                    SignalTokens.deadlineTarget(p.paymentId(), expected))
                .grant()
                .operator())
        .isEqualTo("olga");
  }

  @Test
  void extendDeadline_until_isSentAsGiven() throws Exception {
    PaymentRow p = payment();
    Instant until = Instant.now().plus(Duration.ofDays(1)).truncatedTo(ChronoUnit.SECONDS);

    HttpResponse<String> r =
        post(
            p,
            "extend-deadline",
            "{\"until\":\"" + until + "\",\"reason\":\"customer on the phone\"}",
            OPERATOR);

    assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
    assertThat(api.signals.sent)
        .contains("extendDeadline " + p.paymentId() + " " + until + " olga");
  }

  @Test
  void badInput_is400WithTheReason_andAuditedAsRejected_withoutASignal() throws Exception {
    PaymentRow p = payment();
    String past = Instant.now().minus(Duration.ofHours(1)).toString();
    String[][] cases = {
      {"requery", "{}", "reason is required"},
      {"extend-deadline", "{\"by\":\"30m\"}", "reason is required"},
      {"extend-deadline", "{\"reason\":\"r\"}", "give either until"},
      {
        "extend-deadline",
        "{\"reason\":\"r\",\"by\":\"30m\",\"until\":\"2030-01-01T00:00:00Z\"}",
        "not both"
      },
      {"extend-deadline", "{\"reason\":\"r\",\"until\":\"tomorrow\"}", "ISO-8601 instant"},
      {"extend-deadline", "{\"reason\":\"r\",\"by\":\"-5m\"}", "by must be a duration"},
      {"extend-deadline", "{\"reason\":\"r\",\"by\":\"30\"}", "by must be a duration"},
      {"extend-deadline", "{\"reason\":\"r\",\"by\":\"PT30M\"}", "by must be a duration"},
      {"extend-deadline", "{\"reason\":\"r\",\"by\":\"400d\"}", "at most 366 days"},
      {"extend-deadline", "{\"reason\":\"r\",\"until\":\"" + past + "\"}", "later than"},
    };

    for (String[] c : cases) {
      HttpResponse<String> r = post(p, c[0], c[1], OPERATOR);
      assertThat(r.statusCode()).as("%s %s: %s", c[0], c[1], r.body()).isEqualTo(400);
      assertThat(r.body()).as(c[1]).contains(c[2]).contains("audited as operator_action");
    }

    assertThat(rejected(p, "REQUERY")).isEqualTo(1);
    assertThat(rejected(p, "EXTEND_DEADLINE")).isEqualTo(cases.length - 1);
    assertThat(api.signals.sent).noneMatch(s -> s.contains(p.paymentId()));
  }

  @Test
  void aSettledPayment_is409_forBoth_auditedAsRejected_withoutASignal() throws Exception {
    PaymentRow p = payment();
    SandboxNotification paid =
        new SandboxNotification(
            "n-settled-" + p.paymentId(),
            TestApi.MERCHANT,
            p.paymentId(),
            "sbx-settled-" + p.paymentId(),
            "1.00",
            "USD",
            "PAID",
            Instant.now());
    HttpResponse<String> callback =
        api.request(
            "POST",
            false,
            "/v1/webhooks/sandbox",
            paid.toJson(),
            TestApi.signedCallback(paid.toJson()));
    assertThat(callback.statusCode()).as(callback.body()).isEqualTo(200);

    HttpResponse<String> requery = post(p, "requery", "{\"reason\":\"again\"}", OPERATOR);
    HttpResponse<String> extend =
        post(p, "extend-deadline", "{\"reason\":\"later\",\"by\":\"1h\"}", OPERATOR);

    assertThat(requery.statusCode()).as(requery.body()).isEqualTo(409);
    assertThat(requery.body()).contains("is PAID, not PENDING").contains("the ledger");
    assertThat(extend.statusCode()).as(extend.body()).isEqualTo(409);
    assertThat(rejected(p, "REQUERY")).isEqualTo(1);
    assertThat(rejected(p, "EXTEND_DEADLINE")).isEqualTo(1);
    assertThat(api.signals.sent).noneMatch(s -> s.contains(p.paymentId()));
  }

  @Test
  void aReadKey_is403_anotherTenantsKey_is404_andAnUnknownPayment_is404() throws Exception {
    PaymentRow p = payment();
    String body = "{\"reason\":\"r\",\"by\":\"1h\"}";

    assertThat(post(p, "requery", body.replace(",\"by\":\"1h\"", ""), READER).statusCode())
        .isEqualTo(403);
    assertThat(post(p, "extend-deadline", body, READER).statusCode()).isEqualTo(403);
    assertThat(post(p, "requery", "{\"reason\":\"r\"}", OTHER_TENANT).statusCode()).isEqualTo(404);
    assertThat(post(p, "extend-deadline", body, OTHER_TENANT).statusCode()).isEqualTo(404);
    assertThat(
            api.send(
                    "POST",
                    true,
                    "/v1/admin/payments/pay_missing/requery",
                    "{\"reason\":\"r\"}",
                    OPERATOR.token())
                .statusCode())
        .isEqualTo(404);
    assertThat(api.signals.sent).noneMatch(s -> s.contains(p.paymentId()));
    assertThat(api.dsl.fetchCount(OPERATOR_ACTION, OPERATOR_ACTION.TARGET_ID.eq(p.paymentId())))
        .isZero();
  }
}

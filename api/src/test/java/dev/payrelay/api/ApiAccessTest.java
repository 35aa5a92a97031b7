package dev.payrelay.api;

import static dev.payrelay.ledger.db.generated.Tables.OPERATOR_ACTION;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.payrelay.api.auth.ApiKeys;
import dev.payrelay.api.auth.Role;
import dev.payrelay.domain.Money;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.testing.Payments;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Who may do what through the API: keys, roles, tenants, the operator recorded, and the admin
 * endpoints on their own listener. Real MariaDB; signals are recorded, not sent.
 */
class ApiAccessTest {

  private static final ApiKeys.Issued READER = ApiKeys.issue(Role.READ, "rita", Set.of("t1"));
  private static final ApiKeys.Issued OTHER_TENANT =
      ApiKeys.issue(Role.OPERATE, "otto", Set.of("t2"));
  private static final ApiKeys.Issued OPERATOR = ApiKeys.issue(Role.OPERATE, "olga", Set.of("t1"));

  private static TestApi api;

  @BeforeAll
  static void start() {
    api = new TestApi(ApiAccessTest.class, true, READER, OTHER_TENANT, OPERATOR);
  }

  @AfterAll
  static void stop() {
    api.close();
  }

  private static PaymentRow payment() {
    return api.payments.create(Payments.newPayment(Money.parse("1.00", "USD"), "c1")).payment();
  }

  private static String deadEvent(PaymentRow p) {
    String eventId = api.outbox.forPayment(p.paymentId()).get(0).eventId();
    api.outbox.markDead(eventId, "UNROUTABLE: no binding");
    return eventId;
  }

  @Test
  void everyGuardedEndpoint_withoutAKeyOrWithAnUnknownOne_is401_withABearerChallenge()
      throws Exception {
    PaymentRow p = payment();
    ApiKeys.Issued unknown = ApiKeys.issue(Role.ADMIN, "mallory", Set.of("*"));
    String forged = api.admin.token().substring(0, api.admin.token().length() - 2) + "xx";
    List<String[]> endpoints =
        List.of(
            new String[] {"POST", "public", "/v1/payments", "{}"},
            new String[] {"GET", "public", "/v1/payments/" + p.paymentId(), null},
            new String[] {
              "POST", "admin", "/v1/admin/payments/" + p.paymentId() + "/resolve", "{}"
            },
            new String[] {"GET", "admin", "/v1/admin/payments", null},
            new String[] {"GET", "admin", "/v1/admin/outbox", null},
            new String[] {"POST", "admin", "/v1/admin/outbox/e1/replay", "{}"},
            new String[] {"POST", "admin", "/v1/admin/outbox/e1/discard", "{}"},
            new String[] {"POST", "admin", "/v1/admin/outbox/replay", "{}"},
            new String[] {"POST", "admin", "/v1/admin/reconciliations", "{}"},
            new String[] {"GET", "admin", "/v1/admin/reconciliations/sandbox/2026-01-01", null});
    for (String[] e : endpoints) {
      boolean admin = e[1].equals("admin");
      for (String token : new String[] {null, unknown.token(), forged, "not-a-key"}) {
        HttpResponse<String> r = api.send(e[0], admin, e[2], e[3], token);
        assertThat(r.statusCode()).as("%s %s with %s", e[0], e[2], token).isEqualTo(401);
        assertThat(r.headers().firstValue("WWW-Authenticate"))
            .hasValue("Bearer realm=\"payrelay\"");
      }
    }
    assertThat(api.dsl.fetchCount(OPERATOR_ACTION, OPERATOR_ACTION.TARGET_ID.eq(p.paymentId())))
        .isZero();
    assertThat(api.signals.sent).noneMatch(s -> s.contains(p.paymentId()));
  }

  @Test
  void aReadKey_readsItsTenantsPayment_butIsRefused403OnEveryFix() throws Exception {
    PaymentRow p = payment();
    String eventId = deadEvent(p);
    String body = "{\"reason\":\"r\",\"action\":\"CLOSE\"}";

    HttpResponse<String> trail =
        api.send("GET", false, "/v1/payments/" + p.paymentId(), null, READER.token());
    HttpResponse<String> resolve =
        api.send(
            "POST", true, "/v1/admin/payments/" + p.paymentId() + "/resolve", body, READER.token());
    HttpResponse<String> replay =
        api.send(
            "POST",
            true,
            "/v1/admin/outbox/" + eventId + "/replay",
            "{\"reason\":\"r\"}",
            READER.token());
    HttpResponse<String> create = api.send("POST", false, "/v1/payments", "{}", READER.token());

    assertThat(trail.statusCode()).isEqualTo(200);
    assertThat(trail.body()).contains(p.paymentId());
    assertThat(List.of(resolve, replay, create))
        .allSatisfy(
            r -> {
              assertThat(r.statusCode()).isEqualTo(403);
              assertThat(r.body()).contains("this API key's role is read; this needs operate");
            });
    assertThat(api.signals.sent).noneMatch(s -> s.contains(p.paymentId()));
  }

  @Test
  void anotherTenantsPaymentAndEvent_areNotFound_andItsPaymentsCannotBeCreated() throws Exception {
    PaymentRow p = payment(); // tenant t1
    String eventId = deadEvent(p);
    String token = OTHER_TENANT.token(); // t2 only

    HttpResponse<String> trail =
        api.send("GET", false, "/v1/payments/" + p.paymentId(), null, token);
    HttpResponse<String> resolve =
        api.send(
            "POST",
            true,
            "/v1/admin/payments/" + p.paymentId() + "/resolve",
            "{\"reason\":\"r\",\"action\":\"CLOSE\"}",
            token);
    HttpResponse<String> replay =
        api.send(
            "POST", true, "/v1/admin/outbox/" + eventId + "/replay", "{\"reason\":\"r\"}", token);
    HttpResponse<String> create =
        api.send(
            "POST",
            false,
            "/v1/payments",
            "{\"tenantId\":\"t1\",\"orderId\":\"o-1\",\"userId\":\"u\",\"amountMinor\":100,"
                + "\"currency\":\"USD\",\"courseIds\":[\"c1\"],\"channel\":\"sandbox\"}",
            token);
    HttpResponse<String> outbox = api.send("GET", true, "/v1/admin/outbox", null, token);

    assertThat(trail.statusCode()).isEqualTo(404);
    assertThat(resolve.statusCode()).isEqualTo(404);
    assertThat(replay.statusCode()).isEqualTo(404);
    assertThat(create.statusCode()).isEqualTo(403);
    assertThat(create.body()).contains("may not act for tenant t1");
    assertThat(outbox.statusCode()).isEqualTo(403);
    assertThat(outbox.body()).contains("tenants '*'");
    assertThat(api.signals.sent).noneMatch(s -> s.contains(p.paymentId()));
    assertThat(api.dsl.fetchCount(OPERATOR_ACTION, OPERATOR_ACTION.TARGET_ID.eq(p.paymentId())))
        .isZero();
  }

  @Test
  void theOperatorRecorded_isTheKeys_whateverTheBodySays() throws Exception {
    PaymentRow p = payment();
    PaymentRow q = payment();
    String eventId = deadEvent(q);

    HttpResponse<String> resolve =
        api.send(
            "POST",
            true,
            "/v1/admin/payments/" + p.paymentId() + "/resolve",
            "{\"operator\":\"the-ceo\",\"reason\":\"r\",\"action\":\"CLOSE\"}",
            OPERATOR.token());
    HttpResponse<String> refused =
        api.send(
            "POST",
            true,
            "/v1/admin/payments/" + p.paymentId() + "/resolve",
            "{\"operator\":\"the-ceo\",\"reason\":\"r\",\"action\":\"DROP\"}",
            OPERATOR.token());
    HttpResponse<String> replay =
        api.send(
            "POST",
            true,
            "/v1/admin/outbox/" + eventId + "/replay",
            "{\"operator\":\"the-ceo\",\"reason\":\"binding back\"}",
            OPERATOR.token());

    assertThat(resolve.statusCode()).isEqualTo(202);
    assertThat(resolve.body()).contains("\"operator\":\"olga\"");
    assertThat(refused.statusCode()).isEqualTo(400);
    assertThat(replay.statusCode()).isEqualTo(202);
    assertThat(api.signals.sent)
        .contains("resolve " + p.paymentId() + " CLOSE olga")
        .contains("replayEvent " + q.paymentId() + " " + eventId + " olga");
    assertThat(
            api.dsl
                .selectDistinct(OPERATOR_ACTION.OPERATOR_NAME)
                .from(OPERATOR_ACTION)
                .where(OPERATOR_ACTION.TARGET_ID.eq(p.paymentId()))
                .fetch(OPERATOR_ACTION.OPERATOR_NAME))
        .containsExactly("olga");
  }

  @Test
  void onTheirOwnListener_adminEndpointsAreNotServedOnThePublicOne() throws Exception {
    String token = api.admin.token();

    HttpResponse<String> onPublic = api.send("GET", false, "/v1/admin/outbox", null, token);
    HttpResponse<String> metricsOnPublic = api.send("GET", false, "/metrics", null, null);
    HttpResponse<String> onAdmin = api.send("GET", true, "/v1/admin/outbox", null, token);
    HttpResponse<String> webhookOnAdmin =
        api.send("POST", true, "/v1/webhooks/sandbox", "{}", null);
    HttpResponse<String> healthOnAdmin = api.send("GET", true, "/health/ready", null, null);

    assertThat(api.server.adminPort()).isNotEqualTo(api.server.port());
    assertThat(onPublic.statusCode()).isEqualTo(404);
    assertThat(metricsOnPublic.statusCode()).isEqualTo(404);
    assertThat(onAdmin.statusCode()).isEqualTo(200);
    assertThat(webhookOnAdmin.statusCode()).isEqualTo(404);
    assertThat(healthOnAdmin.statusCode()).isEqualTo(200);
  }

  @Test
  void keyConfiguration_isParsedStrictly_andNeverEchoesAHash() {
    ApiKeys.Issued k = ApiKeys.issue(Role.OPERATE, "alice", Set.of("t1", "t2"));
    ApiKeys parsed = ApiKeys.parse("# ops\n" + k.line() + "\n\n", "PAYRELAY_API_KEYS");
    String hash = k.line().substring(k.line().lastIndexOf(' ') + 1);

    assertThat(parsed.authenticate(k.token())).hasValue(k.key());
    assertThat(parsed.authenticate(k.token() + "x")).isEmpty();
    assertThat(parsed.authenticate(null)).isEmpty();
    assertThatThrownBy(() -> ApiKeys.parse(k.line() + ";" + k.line(), "PAYRELAY_API_KEYS"))
        .hasMessageContaining("appears twice");
    assertThatThrownBy(() -> ApiKeys.parse(k.line().replace("operate", "root"), "keys.txt"))
        .hasMessageContaining("keys.txt, key 1: role must be one of [read, operate, admin]")
        .hasMessageNotContaining(hash);
    assertThatThrownBy(() -> ApiKeys.parse(k.line().replace(hash, "abc"), "keys.txt"))
        .hasMessageContaining("64 hex digits")
        .hasMessageNotContaining(hash);
    assertThatThrownBy(() -> ApiKeys.parse("k1 read alice t1", "keys.txt"))
        .hasMessageContaining("expected '<id> <role> <operator> <tenants> <sha256-hex>'");
    String[] fields = k.line().split(" ");
    fields[3] = "t1,*";
    assertThatThrownBy(() -> ApiKeys.parse(String.join(" ", fields), "keys.txt"))
        .hasMessageContaining("either * (every tenant) or a list");
    assertThat(k.toString()).doesNotContain(k.token());
  }
}

package dev.payrelay.api;

import static dev.payrelay.ledger.db.generated.Tables.OPERATOR_ACTION;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.payrelay.api.auth.ApiKeys;
import dev.payrelay.api.auth.Role;
import dev.payrelay.api.http.ApiServer;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.ChannelRefundResult;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.ledger.operator.OperatorAction;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.payment.PaymentLedger;
import dev.payrelay.ledger.refund.RefundOutcomes;
import dev.payrelay.ledger.refund.RefundResolutions;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.workflows.RefundSignal;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /v1/admin/refunds/{refundId}/requery}, {@code .../accept-as-refunded}, {@code
 * .../mark-failed} and {@code .../signal-token} on real MariaDB: role operate, tenant-scoped,
 * refusals audited as REJECTED, and the signal carries a token for the caller's operator, this
 * refund's workflow and the fix's action. Signals are recorded, not sent, so no verdict comes and
 * the answer is 202 PENDING after the wait; the workflow's verdict is e2e's
 * RefundFixesEndToEndTest.
 */
class RefundFixesApiTest {

  private static final ApiKeys.Issued OPERATOR = ApiKeys.issue(Role.OPERATE, "olga", Set.of("t1"));
  private static final ApiKeys.Issued READER = ApiKeys.issue(Role.READ, "rita", Set.of("t1"));
  private static final ApiKeys.Issued OTHER_TENANT =
      ApiKeys.issue(Role.OPERATE, "otto", Set.of("t2"));

  private static TestApi api;
  private static PaymentLedger ledger;

  @BeforeAll
  static void start() {
    api = new TestApi(RefundFixesApiTest.class, true, OPERATOR, READER, OTHER_TENANT);
    ledger = new PaymentLedger(api.dsl, api.payments, new OutboxWriter(new EventJson()));
  }

  @AfterAll
  static void stop() {
    api.close();
  }

  /** A REQUESTED refund of 3.00 USD of a new PAID payment of tenant t1. */
  private static String refund() throws Exception {
    String paymentId =
        Payments.paid(api.payments, ledger, Money.ofMinor(1050, "USD"), "c1").paymentId();
    HttpResponse<String> r =
        api.request(
            "POST",
            true,
            "/v1/payments/" + paymentId + "/refunds",
            "{\"amountMinor\":300,\"reason\":\"late delivery\"}".getBytes(StandardCharsets.UTF_8),
            Map.of(
                "Content-Type",
                "application/json",
                "Authorization",
                "Bearer " + OPERATOR.token(),
                "Idempotency-Key",
                "k-" + UUID.randomUUID()));
    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    return json(r).path("refundId").asText();
  }

  private static HttpResponse<String> post(
      String refundId, String route, String body, ApiKeys.Issued key) throws Exception {
    return api.send("POST", true, "/v1/admin/refunds/" + refundId + "/" + route, body, key.token());
  }

  private static JsonNode json(HttpResponse<String> r) throws Exception {
    return ApiServer.jsonMapper().readTree(r.body());
  }

  private static int audited(String refundId, String result) {
    return api.dsl.fetchCount(
        OPERATOR_ACTION,
        OPERATOR_ACTION
            .TARGET_TYPE
            .eq("refund")
            .and(OPERATOR_ACTION.TARGET_ID.eq(refundId))
            .and(OPERATOR_ACTION.RESULT.eq(result)));
  }

  private static String operatorOf(RefundSignal s, String refundId, String action) {
    return TestApi.TOKENS
        .verify(s.token(), "refund-" + refundId, action, refundId)
        .grant()
        .operator();
  }

  @Test
  void acceptAsRefunded_sendsTheEvidenceWithATokenForTheCallersOperator_andSaysPending()
      throws Exception {
    String refundId = refund();

    HttpResponse<String> r =
        post(
            refundId,
            "accept-as-refunded",
            "{\"reason\":\"dashboard shows it\",\"channelRefundId\":\" re_3Nx \","
                + "\"operator\":\"mallory\"}",
            OPERATOR);

    assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
    JsonNode answer = json(r);
    assertThat(answer.path("verdict").asText()).isEqualTo("PENDING");
    assertThat(answer.path("operator").asText()).isEqualTo("olga");
    assertThat(answer.path("workflowId").asText()).isEqualTo("refund-" + refundId);
    assertThat(answer.path("action").asText()).isEqualTo("ACCEPT_AS_REFUNDED");
    assertThat(answer.path("refundState").asText()).isEqualTo("REQUESTED");
    assertThat(answer.path("details").asText()).contains("refund show " + refundId);
    assertThat(api.refundSignals.sent).contains("acceptAsRefunded " + refundId + " olga");
    RefundSignal sent = api.refundSignals.signals.getLast();
    assertThat(sent.evidence()).isEqualTo("re_3Nx");
    assertThat(sent.reason()).isEqualTo("dashboard shows it");
    assertThat(operatorOf(sent, refundId, "ACCEPT_AS_REFUNDED")).isEqualTo("olga");
    assertThat(TestApi.TOKENS.verify(sent.token(), "refund-" + refundId, "MARK_FAILED", refundId))
        .matches(v -> !v.verified(), "not a token for another action");
  }

  @Test
  void requery_andMarkFailed_sendTheirSignals_signedForTheirAction() throws Exception {
    String refundId = refund();

    assertThat(post(refundId, "requery", "{\"reason\":\"channel is back\"}", OPERATOR).statusCode())
        .isEqualTo(202);
    assertThat(operatorOf(api.refundSignals.signals.getLast(), refundId, "REQUERY"))
        .isEqualTo("olga");
    assertThat(
            post(refundId, "mark-failed", "{\"reason\":\"channel has no such refund\"}", OPERATOR)
                .statusCode())
        .isEqualTo(202);
    RefundSignal failed = api.refundSignals.signals.getLast();
    assertThat(operatorOf(failed, refundId, "MARK_FAILED")).isEqualTo("olga");
    assertThat(failed.evidence()).isNull();
    assertThat(api.refundSignals.sent)
        .contains("requery " + refundId + " olga", "markFailed " + refundId + " olga");
  }

  @Test
  void badInput_is400WithTheReason_andAuditedAsRejected_withoutASignal() throws Exception {
    String refundId = refund();
    String[][] cases = {
      {"requery", "{}", "reason is required"},
      {"requery", "", "reason is required"},
      {"mark-failed", "{\"reason\":\"  \"}", "reason is required"},
      {"accept-as-refunded", "{\"reason\":\"seen\"}", "channelRefundId is required"},
      {"accept-as-refunded", "{\"reason\":\"seen\",\"channelRefundId\":\" \"}", "channelRefundId"},
      {
        "accept-as-refunded",
        "{\"reason\":\"seen\",\"channelRefundId\":\"" + "r".repeat(129) + "\"}",
        "channelRefundId must be 1..128 characters"
      },
      {"mark-failed", "{\"reason\":\"" + "x".repeat(1001) + "\"}", "at most 1000 characters"},
    };

    for (String[] c : cases) {
      HttpResponse<String> r = post(refundId, c[0], c[1], OPERATOR);
      assertThat(r.statusCode()).as("%s %s: %s", c[0], c[1], r.body()).isEqualTo(400);
      assertThat(r.body()).as(c[1]).contains(c[2]).contains("audited as operator_action");
    }

    assertThat(audited(refundId, "REJECTED")).isEqualTo(cases.length);
    assertThat(api.refundSignals.sent).noneMatch(s -> s.contains(refundId));
  }

  @Test
  void aSettledRefund_is409_forEveryFix_auditedAsRejected_withoutASignal() throws Exception {
    String refundId = refund();
    new RefundResolutions(api.dsl, new RefundOutcomes(api.dsl, new OutboxWriter(new EventJson())))
        .markFailed(
            new OperatorAction(
                "setup-" + refundId, "setup", "MARK_FAILED", "refund", refundId, "setup"),
            refund -> ChannelRefundResult.notFound(refund.refundNo()));

    HttpResponse<String> requery = post(refundId, "requery", "{\"reason\":\"again\"}", OPERATOR);
    HttpResponse<String> accept =
        post(
            refundId,
            "accept-as-refunded",
            "{\"reason\":\"seen\",\"channelRefundId\":\"re_1\"}",
            OPERATOR);
    HttpResponse<String> fail = post(refundId, "mark-failed", "{\"reason\":\"again\"}", OPERATOR);

    for (HttpResponse<String> r : java.util.List.of(requery, accept, fail)) {
      assertThat(r.statusCode()).as(r.body()).isEqualTo(409);
      assertThat(r.body()).contains("is FAILED in the ledger").contains("nothing was sent");
    }
    assertThat(audited(refundId, "REJECTED")).isEqualTo(3);
    assertThat(api.refundSignals.sent).noneMatch(s -> s.contains(refundId));
  }

  @Test
  void aReadKey_is403_anotherTenantsKey_is404_andAnUnknownRefund_is404() throws Exception {
    String refundId = refund();
    String body = "{\"reason\":\"r\",\"channelRefundId\":\"re_1\"}";

    for (String route : new String[] {"requery", "accept-as-refunded", "mark-failed"}) {
      assertThat(post(refundId, route, body, READER).statusCode()).as(route).isEqualTo(403);
      HttpResponse<String> other = post(refundId, route, body, OTHER_TENANT);
      assertThat(other.statusCode()).as(route).isEqualTo(404);
      assertThat(other.body()).contains("no refund " + refundId);
      assertThat(post("rfd_missing", route, body, OPERATOR).statusCode()).isEqualTo(404);
    }
    assertThat(
            post(
                    refundId,
                    "signal-token",
                    "{\"action\":\"REQUERY\",\"reason\":\"r\"}",
                    OTHER_TENANT)
                .statusCode())
        .isEqualTo(404);
    assertThat(api.refundSignals.sent).noneMatch(s -> s.contains(refundId));
    assertThat(audited(refundId, "REJECTED")).isZero();
  }

  @Test
  void signalToken_printsTheInputOfTheRefundSignal_withATokenTheActivityAccepts() throws Exception {
    String refundId = refund();

    HttpResponse<String> r =
        post(
            refundId,
            "signal-token",
            "{\"action\":\"accept_as_refunded\",\"reason\":\"dashboard\","
                + "\"channelRefundId\":\"re_9\"}",
            OPERATOR);

    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    JsonNode answer = json(r);
    assertThat(answer.path("workflowId").asText()).isEqualTo("refund-" + refundId);
    assertThat(answer.path("signal").asText()).isEqualTo("acceptAsRefunded");
    JsonNode input = answer.path("input");
    assertThat(input.path("operator").asText()).isEqualTo("olga");
    assertThat(input.path("reason").asText()).isEqualTo("dashboard");
    assertThat(input.path("evidence").asText()).isEqualTo("re_9");
    RefundSignal asSent = ApiServer.jsonMapper().treeToValue(input, RefundSignal.class);
    assertThat(operatorOf(asSent, refundId, "ACCEPT_AS_REFUNDED")).isEqualTo("olga");
    assertThat(
            post(
                    refundId,
                    "signal-token",
                    "{\"action\":\"ACCEPT_AS_REFUNDED\",\"reason\":\"d\"}",
                    OPERATOR)
                .body())
        .contains("channelRefundId is required");
    assertThat(
            post(refundId, "signal-token", "{\"action\":\"CLOSE\",\"reason\":\"d\"}", OPERATOR)
                .body())
        .contains("unknown action CLOSE");
    assertThat(
            post(refundId, "signal-token", "{\"action\":\"MARK_FAILED\",\"reason\":\"d\"}", READER)
                .statusCode())
        .isEqualTo(403);
    assertThat(api.refundSignals.sent).noneMatch(s -> s.contains(refundId));
  }
}

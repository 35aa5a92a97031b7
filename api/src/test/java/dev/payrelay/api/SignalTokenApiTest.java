package dev.payrelay.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payrelay.api.auth.ApiKeys;
import dev.payrelay.api.auth.Role;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.operator.SignalVerdict;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.workflows.EventOperatorSignal;
import dev.payrelay.workflows.ResolveSignal;
import java.net.http.HttpResponse;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /v1/admin/payments/{id}/signal-token} signs a token for the caller's key, one
 * workflow, one action and one target, scoped like every fix; the admin API's own signals carry
 * one. Real MariaDB; signals are recorded, not sent.
 */
class SignalTokenApiTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ApiKeys.Issued READER = ApiKeys.issue(Role.READ, "rita", Set.of("t1"));
  private static final ApiKeys.Issued OTHER_TENANT =
      ApiKeys.issue(Role.OPERATE, "otto", Set.of("t2"));
  private static final ApiKeys.Issued OPERATOR = ApiKeys.issue(Role.OPERATE, "olga", Set.of("t1"));

  private static TestApi api;

  @BeforeAll
  static void start() {
    api = new TestApi(SignalTokenApiTest.class, true, READER, OTHER_TENANT, OPERATOR);
  }

  @AfterAll
  static void stop() {
    api.close();
  }

  private static PaymentRow payment() {
    return api.payments.create(Payments.newPayment(Money.parse("1.00", "USD"), "c1")).payment();
  }

  private static HttpResponse<String> signalToken(PaymentRow p, String body, ApiKeys.Issued key)
      throws Exception {
    return api.send(
        "POST", true, "/v1/admin/payments/" + p.paymentId() + "/signal-token", body, key.token());
  }

  @Test
  void anOperateKey_getsTheWholeResolveInput_withATokenForItsOperator_thisPaymentAndAction()
      throws Exception {
    PaymentRow p = payment();

    HttpResponse<String> r =
        signalToken(p, "{\"action\":\"accept_as_paid\",\"reason\":\"by phone\"}", OPERATOR);

    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    JsonNode answer = JSON.readTree(r.body());
    JsonNode input = answer.path("input");
    assertThat(answer.path("workflowId").asText()).isEqualTo("payment-" + p.paymentId());
    assertThat(answer.path("signal").asText()).isEqualTo("resolve");
    assertThat(input.path("operator").asText()).isEqualTo("olga");
    assertThat(input.path("action").asText()).isEqualTo("ACCEPT_AS_PAID");
    assertThat(input.path("reason").asText()).isEqualTo("by phone");
    SignalVerdict verdict =
        TestApi.TOKENS.verify(
            input.path("token").asText(),
            "payment-" + p.paymentId(),
            "ACCEPT_AS_PAID",
            p.paymentId());
    assertThat(verdict.refusal()).isNull();
    assertThat(verdict.grant().keyId()).isEqualTo(OPERATOR.key().id());
  }

  @Test
  void aReplayToken_isForTheEvent_andAnEventOfAnotherPayment_is404() throws Exception {
    PaymentRow p = payment();
    PaymentRow other = payment();
    String eventId = api.outbox.forPayment(p.paymentId()).get(0).eventId();
    String othersEvent = api.outbox.forPayment(other.paymentId()).get(0).eventId();

    HttpResponse<String> ok =
        signalToken(
            p,
            "{\"action\":\"REPLAY_EVENT\",\"reason\":\"bound\",\"eventId\":\"" + eventId + "\"}",
            OPERATOR);
    HttpResponse<String> foreign =
        signalToken(
            p,
            "{\"action\":\"REPLAY_EVENT\",\"reason\":\"bound\",\"eventId\":\""
                + othersEvent
                + "\"}",
            OPERATOR);

    assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
    JsonNode input = JSON.readTree(ok.body()).path("input");
    assertThat(JSON.readTree(ok.body()).path("signal").asText()).isEqualTo("replayEvent");
    assertThat(input.path("eventId").asText()).isEqualTo(eventId);
    assertThat(
            TestApi.TOKENS
                .verify(
                    input.path("token").asText(),
                    "payment-" + p.paymentId(),
                    "REPLAY_EVENT",
                    eventId)
                .verified())
        .isTrue();
    assertThat(foreign.statusCode()).isEqualTo(404);
  }

  @Test
  void aReadKey_is403_anotherTenantsKey_is404_andBadInput_is400() throws Exception {
    PaymentRow p = payment();
    String body = "{\"action\":\"CLOSE\",\"reason\":\"r\"}";

    assertThat(signalToken(p, body, READER).statusCode()).isEqualTo(403);
    assertThat(signalToken(p, body, OTHER_TENANT).statusCode()).isEqualTo(404);
    assertThat(signalToken(p, "{\"action\":\"STEAL\",\"reason\":\"r\"}", OPERATOR).statusCode())
        .isEqualTo(400);
    assertThat(signalToken(p, "{\"action\":\"CLOSE\"}", OPERATOR).statusCode()).isEqualTo(400);
    assertThat(
            signalToken(p, "{\"action\":\"REPLAY_EVENT\",\"reason\":\"r\"}", OPERATOR).statusCode())
        .isEqualTo(400);
  }

  @Test
  void theAdminApisOwnResolveAndReplay_carryATokenForTheCallersOperator() throws Exception {
    PaymentRow p = payment();
    String eventId = api.outbox.forPayment(p.paymentId()).get(0).eventId();
    api.outbox.markDead(eventId, "UNROUTABLE: no binding");

    HttpResponse<String> resolve =
        api.send(
            "POST",
            true,
            "/v1/admin/payments/" + p.paymentId() + "/resolve",
            "{\"reason\":\"by phone\",\"action\":\"mark_for_refund\"}",
            OPERATOR.token());
    HttpResponse<String> replay =
        api.send(
            "POST",
            true,
            "/v1/admin/outbox/" + eventId + "/replay",
            "{\"reason\":\"bound\"}",
            OPERATOR.token());

    assertThat(resolve.statusCode()).as(resolve.body()).isEqualTo(202);
    assertThat(replay.statusCode()).as(replay.body()).isEqualTo(202);
    ResolveSignal resolved =
        api.signals.signals.stream()
            .filter(ResolveSignal.class::isInstance)
            .map(ResolveSignal.class::cast)
            .filter(s -> "mark_for_refund".equals(s.action()))
            .findFirst()
            .orElseThrow();
    EventOperatorSignal replayed =
        api.signals.signals.stream()
            .filter(EventOperatorSignal.class::isInstance)
            .map(EventOperatorSignal.class::cast)
            .filter(s -> eventId.equals(s.eventId()))
            .findFirst()
            .orElseThrow();
    String workflowId = "payment-" + p.paymentId();
    assertThat(
            TestApi.TOKENS
                .verify(resolved.token(), workflowId, "MARK_FOR_REFUND", p.paymentId())
                .grant()
                .operator())
        .isEqualTo("olga");
    assertThat(
            TestApi.TOKENS
                .verify(replayed.token(), workflowId, "REPLAY_EVENT", eventId)
                .grant()
                .operator())
        .isEqualTo("olga");
  }
}

package dev.payrelay.e2e;

import static dev.payrelay.ledger.db.generated.Tables.OPERATOR_ACTION;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payrelay.cli.AdminClient;
import dev.payrelay.workflows.WorkflowIds;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A fix sent as a raw Temporal signal (as the Temporal UI or {@code temporal workflow signal} sends
 * it) is audited under the operator of the token {@code payrelay admin sign-signal} printed, never
 * the name in the signal's JSON; without a token, outside production mode, it is applied and
 * audited as unverified. On a whole payrelay with the real Temporal dev server.
 */
class RawSignalIdentityEndToEndTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static PayrelayHarness payrelay;

  @BeforeAll
  static void start() throws Exception {
    payrelay = new PayrelayHarness(RawSignalIdentityEndToEndTest.class);
  }

  @AfterAll
  static void stop() throws Exception {
    payrelay.close();
  }

  @Test
  void signSignalsInput_sentAsARawSignal_isAppliedUnderTheKeysOperator_notTheJsons()
      throws Exception {
    String paymentId = underpaid(payrelay);
    CliRun signed =
        CliRun.of(
            payrelay.env,
            "admin",
            "sign-signal",
            "--payment",
            paymentId,
            "--action",
            "accept_as_paid",
            "--reason",
            "channel confirmed 10.00 by phone",
            "--json");
    assertThat(signed.exit()).as(signed.err()).isEqualTo(AdminClient.OK);
    JsonNode answer = JSON.readTree(signed.out());
    assertThat(answer.path("signal").asText()).isEqualTo("resolve");
    assertThat(answer.path("workflowId").asText()).isEqualTo(WorkflowIds.payment(paymentId));
    Map<String, Object> input = new HashMap<>(JSON.convertValue(answer.path("input"), Map.class));
    assertThat(input).containsEntry("operator", "alice").containsEntry("action", "ACCEPT_AS_PAID");
    input.put("operator", "mallory");
    CliRun printed =
        CliRun.of(
            payrelay.env,
            "admin",
            "sign-signal",
            "--payment",
            paymentId,
            "--action",
            "CLOSE",
            "--reason",
            "buyer's call");
    assertThat(printed.exit()).as(printed.err()).isEqualTo(AdminClient.OK);
    assertThat(printed.out())
        .contains("Signal resolve to payment-" + paymentId + " as alice, valid until ")
        .contains("More Actions > Send a Signal, Signal name resolve")
        .contains(
            "temporal workflow signal --workflow-id payment-"
                + paymentId
                + " --name resolve --input '{\"action\":\"CLOSE\",\"operator\":\"alice\","
                + "\"reason\":\"buyer'\\''s call\",\"token\":\"pst1.");

    signal(payrelay, paymentId, input);

    assertThat(awaitAudit(payrelay, paymentId)).containsExactly("alice APPLIED");
    assertThat(payrelay.status(paymentId)).isEqualTo("PAID");
  }

  @Test
  void aRawSignalWithoutAToken_outsideProductionMode_isApplied_auditedAsUnverified()
      throws Exception {
    String paymentId = underpaid(payrelay);

    signal(
        payrelay,
        paymentId,
        Map.of("operator", "mallory", "reason", "trust me", "action", "ACCEPT_AS_PAID"));

    assertThat(awaitAudit(payrelay, paymentId)).containsExactly("unverified: mallory APPLIED");
  }

  /** A 10.50 payment paid 10.00 at the channel: NEEDS_ATTENTION. */
  static String underpaid(PayrelayHarness payrelay) throws Exception {
    String paymentId = payrelay.createPayment(1050, "USD", "c1");
    payrelay.payAtSandbox(paymentId, "{\"amount\":\"10.00\"}");
    await()
        .atMost(Duration.ofSeconds(30))
        .ignoreExceptions()
        .until(() -> "NEEDS_ATTENTION".equals(payrelay.paymentState(paymentId)));
    return paymentId;
  }

  /** Sends {@code resolve} as the Temporal CLI does: by name, with plain JSON input. */
  static void signal(PayrelayHarness payrelay, String paymentId, Map<String, ?> input) {
    payrelay
        .stack
        .temporal()
        .client()
        .newUntypedWorkflowStub(WorkflowIds.payment(paymentId))
        .signal("resolve", input);
  }

  /** The payment's audit rows as {@code "<operator> <result>"}, once there is one. */
  static List<String> awaitAudit(PayrelayHarness payrelay, String paymentId) {
    return await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                payrelay
                    .stack
                    .services()
                    .database()
                    .dsl()
                    .select(OPERATOR_ACTION.OPERATOR_NAME, OPERATOR_ACTION.RESULT)
                    .from(OPERATOR_ACTION)
                    .where(OPERATOR_ACTION.TARGET_ID.eq(paymentId))
                    .fetch(r -> r.value1() + " " + r.value2()),
            rows -> !rows.isEmpty());
  }
}

package dev.payrelay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** How {@code payrelay payment show} prints a trail the admin API answered. */
class PaymentTrailTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static final String PAYMENT =
      "{\"paymentId\":\"pay_1\",\"status\":\"PENDING\",\"orderId\":\"o-1\",\"tenantId\":\"t1\","
          + "\"channel\":\"sandbox\",\"amount\":{\"minorUnits\":1050,\"currency\":\"USD\"},"
          + "\"channelTxnId\":null,\"paidAt\":null,\"expiresAt\":\"2030-01-01T00:30:00Z\","
          + "\"createdAt\":\"2030-01-01T00:00:00Z\"}";

  private static final String EVENTS =
      "[{\"paymentSeq\":1,\"eventType\":\"PaymentCreated\",\"status\":\"SENT\",\"attempts\":0,"
          + "\"lastError\":null,\"sentAt\":\"2030-01-01T00:00:01Z\"},"
          + "{\"paymentSeq\":2,\"eventType\":\"PaymentExceptionRecorded\",\"status\":\"DEAD\","
          + "\"attempts\":4,\"lastError\":\"NO_ROUTE: unroutable\",\"sentAt\":null}]";

  @Test
  void amountReadsInMajorUnits_absentFieldsAreLeftOut_andUnretriedEventsShowNoAttempts()
      throws Exception {
    String out = print(trail("null"));

    assertThat(out)
        .contains("payment pay_1  PENDING  order o-1  tenant t1  channel sandbox  amount 10.50 USD")
        .contains("#1  PaymentCreated  SENT  sent 2030-01-01T00:00:01Z\n")
        .contains("#2  PaymentExceptionRecorded  DEAD  4 failed attempt(s)  last error: NO_ROUTE")
        .doesNotContain("null")
        .doesNotContain("attempts 0")
        .doesNotContain("minorUnits")
        .doesNotContain("channel txn");
  }

  @Test
  void workflow_printsRunStatusLinkReasonAndCurrentDetails() throws Exception {
    String workflow =
        "{\"workflowId\":\"payment-pay_1\",\"namespace\":\"default\",\"address\":\"127.0.0.1:7233\","
            + "\"reachable\":true,\"runId\":\"r-1\",\"status\":\"Running\","
            + "\"uiUrl\":\"http://127.0.0.1:8233/namespaces/default/workflows/payment-pay_1/r-1\","
            + "\"currentDetails\":\"**NEEDS_ATTENTION**\\nresolve ACCEPT_AMOUNT\","
            + "\"state\":\"NEEDS_ATTENTION\",\"lastError\":\"AMOUNT_MISMATCH\","
            + "\"attention\":[\"amount mismatch — fix: resolve\"],\"waitingFor\":null,"
            + "\"error\":null}";

    String out = print(trail(workflow));

    assertThat(out)
        .contains("workflow payment-pay_1  run r-1  Running  state NEEDS_ATTENTION\n")
        .contains("  ui http://127.0.0.1:8233/namespaces/default/workflows/payment-pay_1/r-1\n")
        .contains("  last error: AMOUNT_MISMATCH\n")
        .contains("  attention: amount mismatch — fix: resolve\n")
        .contains("  current details:\n    **NEEDS_ATTENTION**\n    resolve ACCEPT_AMOUNT\n")
        .doesNotContain("waiting for")
        .doesNotContain("note:");
  }

  @Test
  void unreachableTemporal_isOneLineNamingTheAddress_andTheLedgerTrailStillPrints()
      throws Exception {
    String workflow =
        "{\"workflowId\":\"payment-pay_1\",\"namespace\":\"default\",\"address\":\"10.0.0.9:7233\","
            + "\"reachable\":false,\"runId\":null,\"status\":null,\"uiUrl\":null,"
            + "\"currentDetails\":null,\"state\":null,\"lastError\":null,\"attention\":[],"
            + "\"waitingFor\":null,\"error\":\"Temporal unreachable (10.0.0.9:7233)\"}";

    String out = print(trail(workflow));

    assertThat(out.lines().filter(l -> l.contains("workflow")))
        .containsExactly("workflow: Temporal unreachable (10.0.0.9:7233)");
    assertThat(out).contains("events (2):").contains("amount 10.50 USD");
  }

  @Test
  void aRevokedGrantSaysWhenAndByWhichRefund_aLiveOneSaysNothingOfRevocation() throws Exception {
    String out =
        print(
            JSON.readTree(
                "{\"payment\":"
                    + PAYMENT
                    + ",\"events\":[],\"entitlements\":["
                    + "{\"userId\":\"u1\",\"courseId\":\"c1\",\"purchaseId\":\"pay_1\","
                    + "\"grantedAt\":\"2030-01-01T00:00:02Z\","
                    + "\"revokedAt\":\"2030-01-02T00:00:00Z\",\"revokedByRefund\":\"rfd_9\"},"
                    + "{\"userId\":\"u1\",\"courseId\":\"c2\",\"purchaseId\":\"pay_1\","
                    + "\"grantedAt\":\"2030-01-01T00:00:02Z\",\"revokedAt\":null,"
                    + "\"revokedByRefund\":null}],"
                    + "\"exceptions\":[],\"operatorActions\":["
                    + "{\"createdAt\":\"2030-01-02T00:00:00Z\",\"action\":\"MARK_FAILED\","
                    + "\"targetId\":\"rfd_8\",\"operator\":\"alice\",\"result\":\"APPLIED\"},"
                    + "{\"createdAt\":\"2030-01-02T00:00:01Z\",\"action\":\"CLOSE\","
                    + "\"targetId\":\"pay_1\",\"operator\":\"bob\",\"result\":\"REJECTED\"}"
                    + "],\"workflow\":null}"));

    assertThat(out)
        .contains(
            "c1  for user u1  at 2030-01-01T00:00:02Z  REVOKED at 2030-01-02T00:00:00Z by refund"
                + " rfd_9\n")
        .contains("c2  for user u1  at 2030-01-01T00:00:02Z\n")
        .contains("2030-01-02T00:00:00Z  MARK_FAILED  on rfd_8  by alice:  APPLIED")
        .contains("2030-01-02T00:00:01Z  CLOSE  by bob:  REJECTED");
  }

  @Test
  void aPaymentRefundedAfterItsRunEnded_saysWhyTheWorkflowShowsAnotherState() throws Exception {
    String ended =
        "{\"workflowId\":\"payment-pay_1\",\"reachable\":true,\"runId\":\"r-1\","
            + "\"status\":\"Completed\",\"state\":\"%s\"}";
    JsonNode refunded = trail(ended.formatted("FULFILLED"));
    ((com.fasterxml.jackson.databind.node.ObjectNode) refunded.path("payment"))
        .put("status", "REFUNDED");

    assertThat(print(refunded))
        .contains("workflow payment-pay_1  run r-1  Completed  state FULFILLED\n")
        .contains(
            "  note: the payment's run ended FULFILLED before it was REFUNDED; each refund runs in a"
                + " workflow of its own (payrelay refund list pay_1)\n");

    JsonNode agreeing = trail(ended.formatted("REFUNDED"));
    ((com.fasterxml.jackson.databind.node.ObjectNode) agreeing.path("payment"))
        .put("status", "REFUNDED");
    assertThat(print(agreeing)).doesNotContain("note:");
    assertThat(print(trail(ended.formatted("FULFILLED")))).doesNotContain("note:");
  }

  private static JsonNode trail(String workflow) throws Exception {
    return JSON.readTree(
        "{\"payment\":"
            + PAYMENT
            + ",\"events\":"
            + EVENTS
            + ",\"entitlements\":[],\"exceptions\":[],\"operatorActions\":[],\"workflow\":"
            + workflow
            + "}");
  }

  private static String print(JsonNode trail) {
    StringWriter text = new StringWriter();
    try (PrintWriter out = new PrintWriter(text)) {
      PaymentTrail.print(trail, out);
    }
    return text.toString();
  }
}

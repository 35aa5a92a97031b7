package dev.payrelay.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.payrelay.cli.AdminClient;
import dev.payrelay.cli.AdminPaymentsCommand;
import dev.payrelay.temporal.client.PaymentListing;
import dev.payrelay.temporal.client.PaymentListingFilter;
import dev.payrelay.temporal.client.PaymentListingPage;
import dev.payrelay.temporal.client.PaymentListingRow;
import dev.payrelay.workflows.WorkflowIds;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Listing payments by state through the real dev server's visibility store: the library, the admin
 * API and the CLI run the same query. Visibility is eventually consistent, so every expectation of
 * a row is awaited; an absence is asserted only once its payment is listed elsewhere.
 */
class PaymentListingEndToEndTest {

  private static final Duration VISIBLE = Duration.ofSeconds(30);
  private static PayrelayHarness payrelay;
  private static PaymentListing listing;
  private static String mismatchT1;
  private static String otherMismatchT1;
  private static String paidT1;
  private static String mismatchT2;

  @BeforeAll
  static void start() throws Exception {
    payrelay = new PayrelayHarness(PaymentListingEndToEndTest.class);
    listing = new PaymentListing(payrelay.stack.temporal().client());
    mismatchT1 = payrelay.createPayment("t1", 1050, "USD", "c1");
    otherMismatchT1 = payrelay.createPayment("t1", 1050, "USD", "c1");
    paidT1 = payrelay.createPayment("t1", 700, "USD", "c1");
    mismatchT2 = payrelay.createPayment("t2", 1050, "USD", "c1");
    for (String id : List.of(mismatchT1, otherMismatchT1, mismatchT2)) {
      assertThat(payrelay.payAtSandbox(id, "{\"amount\":\"10.00\"}").statusCode()).isEqualTo(200);
    }
    assertThat(payrelay.payAtSandbox(paidT1, "{}").statusCode()).isEqualTo(200);
  }

  @AfterAll
  static void stop() throws Exception {
    payrelay.close();
  }

  @Test
  void amountMismatch_isListedUnderNeedsAttention_paidOneUnderFulfilled_andNotTheOtherWay() {
    PaymentListingRow attention = awaitRow("NEEDS_ATTENTION", null, mismatchT1);
    PaymentListingRow fulfilled = awaitRow("FULFILLED", null, paidT1);

    assertThat(attention.workflowId()).isEqualTo(WorkflowIds.payment(mismatchT1));
    assertThat(attention.tenantId()).isEqualTo("t1");
    assertThat(attention.channel()).isEqualTo("sandbox");
    assertThat(attention.orderId()).startsWith("o-");
    assertThat(attention.paymentState()).isEqualTo("NEEDS_ATTENTION");
    // It waits for an operator's signal: still running, no close time.
    assertThat(attention.executionStatus()).isEqualTo("RUNNING");
    assertThat(attention.startTime()).isNotNull();
    assertThat(attention.closeTime()).isNull();
    assertThat(fulfilled.paymentState()).isEqualTo("FULFILLED");
    // Nothing left to do: its run completes, and the listing shows when.
    await()
        .atMost(VISIBLE)
        .until(
            () -> awaitRow("FULFILLED", null, paidT1),
            r -> r.executionStatus().equals("COMPLETED") && r.closeTime() != null);
    assertThat(ids(list("NEEDS_ATTENTION", null))).doesNotContain(paidT1);
    assertThat(ids(list("FULFILLED", null))).doesNotContain(mismatchT1, mismatchT2);
  }

  @Test
  void tenantFilter_listsOnlyThatTenantsPayments() {
    awaitRow("NEEDS_ATTENTION", "t1", mismatchT1);
    awaitRow("NEEDS_ATTENTION", "t2", mismatchT2);

    assertThat(ids(list("NEEDS_ATTENTION", "t1"))).doesNotContain(mismatchT2);
    assertThat(ids(list("NEEDS_ATTENTION", "t2"))).containsExactly(mismatchT2);
    assertThat(list("NEEDS_ATTENTION", "t1").payments())
        .allSatisfy(r -> assertThat(r.tenantId()).isEqualTo("t1"));
  }

  @Test
  void maliciousTenant_isRefused_andAnOperatorWordInsideTheQuotesMatchesNothing() {
    awaitRow("NEEDS_ATTENTION", "t1", mismatchT1);

    assertThatThrownBy(() -> list("NEEDS_ATTENTION", "t1\" OR WorkflowType=\"x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must not contain quotes");
    // Without quotes the same words stay one literal value: no tenant has that id.
    PaymentListingPage literal = list("NEEDS_ATTENTION", "t1 OR WorkflowType = PaymentWorkflow");
    assertThat(literal.query()).endsWith("TenantId = \"t1 OR WorkflowType = PaymentWorkflow\"");
    assertThat(literal.payments()).isEmpty();
  }

  @Test
  void limitOfOne_pagesThroughTheMatches_withTheToken() {
    awaitRow("NEEDS_ATTENTION", "t1", mismatchT1);
    awaitRow("NEEDS_ATTENTION", "t1", otherMismatchT1);
    PaymentListingFilter filter = PaymentListingFilter.of("NEEDS_ATTENTION", "t1", "sandbox");

    PaymentListingPage first = listing.list(filter, 1, null);
    PaymentListingPage second = listing.list(filter, 1, first.nextPageToken());

    assertThat(first.payments()).hasSize(1);
    assertThat(first.nextPageToken()).isNotBlank();
    assertThat(second.payments()).hasSize(1);
    assertThat(ids(first)).doesNotContainAnyElementsOf(ids(second));
    assertThat(List.of(ids(first).get(0), ids(second).get(0)))
        .containsExactlyInAnyOrder(mismatchT1, otherMismatchT1);
  }

  @Test
  void adminApi_answersTheQueryAndRows_andAnUnknownStateIs400() throws Exception {
    awaitRow("NEEDS_ATTENTION", "t1", mismatchT1);

    JsonNode page = payrelay.trail("/v1/admin/payments?state=NEEDS_ATTENTION&tenantId=t1&limit=50");
    HttpResponse<String> bad = get("/v1/admin/payments?state=NEEDS_HELP");
    HttpResponse<String> injected =
        get(
            "/v1/admin/payments?state=NEEDS_ATTENTION&tenantId="
                + URLEncoder.encode("t1\" OR WorkflowType=\"x", StandardCharsets.UTF_8));

    assertThat(page.path("query").asText())
        .isEqualTo(PaymentListingFilter.of("NEEDS_ATTENTION", "t1", null).query());
    assertThat(page.path("payments").findValuesAsText("paymentId"))
        .contains(mismatchT1)
        .doesNotContain(paidT1, mismatchT2);
    assertThat(page.path("payments").get(0).path("startTime").asText()).endsWith("Z");
    assertThat(bad.statusCode()).isEqualTo(400);
    assertThat(bad.body()).contains("state must be one of").contains("NEEDS_ATTENTION");
    assertThat(injected.statusCode()).isEqualTo(400);
  }

  @Test
  void cliAdminPayments_printsTheQueryAndThePayment_andExitsNonZeroOnBadInput() {
    awaitRow("NEEDS_ATTENTION", "t2", mismatchT2);

    CliRun table = cli("admin", "payments", "--state", "NEEDS_ATTENTION", "--tenant", "t2");
    CliRun json =
        cli("admin", "payments", "--state", "needs_attention", "--tenant", "t2", "--json");
    CliRun bad = cli("admin", "payments", "--state", "LOST");

    assertThat(table.exit()).isZero();
    assertThat(table.out())
        .contains("query: " + PaymentListingFilter.of("NEEDS_ATTENTION", "t2", null).query())
        .contains(mismatchT2)
        .contains("1 payment(s)")
        .doesNotContain(mismatchT1);
    assertThat(json.exit()).isZero();
    assertThat(json.out()).contains("\"paymentId\" : \"" + mismatchT2 + "\"");
    assertThat(bad.exit()).isEqualTo(AdminPaymentsCommand.BAD_INPUT);
    assertThat(bad.err()).contains("state must be one of");
  }

  @Test
  void cliPaymentShow_byOrderId_findsThePaymentAndPrintsItsTrail_withTheExceptionsKind() {
    PaymentListingRow row = awaitRow("NEEDS_ATTENTION", "t2", mismatchT2);

    CliRun listed = cli("admin", "payments", "--order", row.orderId(), "--tenant", "t2");
    CliRun byOrder = cli("payment", "show", "--order", row.orderId(), "--tenant", "t2");
    CliRun byId = cli("payment", "show", mismatchT2, "--json");
    CliRun unknown = cli("payment", "show", "--order", "no-such-order", "--tenant", "t2");
    CliRun both = cli("payment", "show", mismatchT2, "--order", row.orderId());

    assertThat(listed.exit()).as(listed.err()).isZero();
    assertThat(listed.out())
        .contains("OrderId = \"" + row.orderId() + "\"")
        .contains(mismatchT2)
        .contains("REASON")
        .contains("exception or DEAD event: payrelay payment show " + mismatchT2)
        .contains("1 payment(s)");
    assertThat(byOrder.exit()).as(byOrder.err()).isZero();
    assertThat(byOrder.out())
        .contains("payment " + mismatchT2 + "  PENDING  order " + row.orderId())
        .contains("exceptions (1):")
        .contains("amount 10.50 USD")
        .contains("workflow " + WorkflowIds.payment(mismatchT2) + "  run ")
        .contains("Running  state NEEDS_ATTENTION")
        .contains("current details:")
        .contains("AMOUNT_MISMATCH OPEN")
        .contains("PaymentExceptionRecorded")
        .doesNotContain("null")
        .doesNotContain("attempts 0");
    assertThat(byId.exit()).isZero();
    assertThat(byId.out())
        .contains("\"kind\" : \"AMOUNT_MISMATCH\"")
        .contains("\"workflowId\" : \"" + WorkflowIds.payment(mismatchT2) + "\"")
        .contains("\"reachable\" : true");
    assertThat(unknown.exit()).isEqualTo(AdminClient.REFUSED);
    assertThat(unknown.out()).contains("no payment workflow for order no-such-order");
    assertThat(both.exit()).as("a payment id or an order id, not both").isNotZero();
  }

  @Test
  void pageTokenTheServerRefuses_is400NamingIt_andTheCliExitsBadInput() throws Exception {
    // Valid base64url, so only Temporal can tell it is not one of its tokens.
    String forged = "AAAA";
    PaymentListingFilter filter = PaymentListingFilter.of("NEEDS_ATTENTION", null, null);

    assertThatThrownBy(() -> listing.list(filter, 10, forged))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("pageToken");
    HttpResponse<String> r = get("/v1/admin/payments?state=NEEDS_ATTENTION&pageToken=" + forged);
    CliRun cli = cli("admin", "payments", "--state", "NEEDS_ATTENTION", "--page-token", forged);

    assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
    assertThat(r.body()).contains("pageToken");
    assertThat(cli.exit()).as(cli.err()).isEqualTo(AdminPaymentsCommand.BAD_INPUT);
    assertThat(cli.err()).contains("pageToken");
  }

  private static CliRun cli(String... args) {
    return CliRun.of(payrelay.env, args);
  }

  private static PaymentListingPage list(String state, String tenant) {
    return listing.list(PaymentListingFilter.of(state, tenant, null), 1000, null);
  }

  private static List<String> ids(PaymentListingPage page) {
    return page.payments().stream().map(PaymentListingRow::paymentId).toList();
  }

  /** Waits until the listing by {@code state} (and tenant) shows the payment; returns its row. */
  private static PaymentListingRow awaitRow(String state, String tenant, String paymentId) {
    return await()
        .atMost(VISIBLE)
        .until(() -> find(list(state, tenant), paymentId), Optional::isPresent)
        .orElseThrow();
  }

  private static Optional<PaymentListingRow> find(PaymentListingPage page, String paymentId) {
    return page.payments().stream().filter(r -> paymentId.equals(r.paymentId())).findFirst();
  }

  private static HttpResponse<String> get(String path) throws Exception {
    return payrelay.http.send(
        HttpRequest.newBuilder(URI.create(payrelay.api(path).toString()))
            .header("Authorization", "Bearer " + PayrelayHarness.KEY.token())
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}

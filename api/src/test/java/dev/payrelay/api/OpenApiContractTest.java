package dev.payrelay.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.payrelay.api.admin.QuarantineAdmin;
import dev.payrelay.api.auth.ApiKeys;
import dev.payrelay.api.auth.Public;
import dev.payrelay.api.auth.Role;
import dev.payrelay.api.auth.RouteGuard;
import dev.payrelay.api.http.ApiServer;
import dev.payrelay.api.http.OpenApiDocument;
import dev.payrelay.channels.sandbox.SandboxNotification;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.ChannelRefundResult;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.ledger.operator.OperatorAction;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.payment.PaymentLedger;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.refund.RefundOutcomes;
import dev.payrelay.ledger.refund.RefundResolutions;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.simulators.sandbox.SandboxSimulator;
import dev.payrelay.simulators.sandbox.SandboxSimulatorConfig;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The OpenAPI document ({@code /openapi.yaml}) is the API's contract: it parses as OpenAPI 3.1
 * without a message, it lists exactly the routes each listener registers with the access each
 * declares, and real answers (real MariaDB, the sandbox simulator as the channel) have a status
 * their route documents and a body its schema accepts.
 */
class OpenApiContractTest {

  private static final ApiKeys.Issued READER = ApiKeys.issue(Role.READ, "rita", Set.of("t1"));
  private static final String JSON = "application/json";

  private static SandboxSimulator sandbox;
  private static TestApi api;
  private static OpenApiContract contract;

  @BeforeAll
  static void start() throws Exception {
    sandbox =
        new SandboxSimulator(
            new SandboxSimulatorConfig(
                "127.0.0.1",
                0,
                TestApi.MERCHANT,
                TestApi.SECRET,
                List.of(),
                Duration.ofSeconds(1),
                Map.of()),
            Clock.systemUTC(),
            HttpClient.newHttpClient());
    sandbox.start();
    api = new TestApi(OpenApiContractTest.class, sandbox.baseUrl(), new NoConsumers(), READER);
    contract = OpenApiContract.load();
  }

  @AfterAll
  static void stop() {
    api.close();
    sandbox.close();
  }

  @Test
  void theDocument_parsesAsOpenApi31_withoutAMessage() {
    assertThat(contract.parsed.getMessages()).isEmpty();
    assertThat(contract.api().getOpenapi()).isEqualTo("3.1.0");
  }

  @Test
  void eachListener_registersExactlyTheDocumentedRoutes_withTheDocumentedAccess() {
    SoftAssertions softly = new SoftAssertions();
    for (boolean adminListener : new boolean[] {false, true}) {
      String listener = adminListener ? "admin" : "public";
      TreeSet<String> registered =
          api.server.routes(adminListener).stream()
              .map(r -> r.method() + " " + r.path().replaceAll("<([^>]+)>", "{$1}"))
              .collect(Collectors.toCollection(TreeSet::new));
      TreeSet<String> documented = contract.routes(listener);

      softly
          .assertThat(minus(registered, documented))
          .as("routes the %s listener registers that the document lacks", listener)
          .isEmpty();
      softly
          .assertThat(minus(documented, registered))
          .as("routes the document puts on the %s listener that it does not register", listener)
          .isEmpty();
      softly
          .assertThat(accessMismatches(adminListener))
          .as("routes of the %s listener whose documented access is not the declared one", listener)
          .isEmpty();
    }
    softly.assertAll();
  }

  @Test
  void realAnswers_haveADocumentedStatus_andABodyTheirSchemaAccepts() throws Exception {
    List<HttpResponse<String>> answers = new ArrayList<>(payments());
    answers.addAll(webhooks());
    answers.addAll(admin());
    answers.addAll(everywhere());
    answers.addAll(refunds());

    List<String> problems = new ArrayList<>();
    answers.forEach(a -> problems.addAll(contract.problems(a)));

    assertThat(problems).as("answers the document does not describe").isEmpty();
    assertThat(answers.stream().map(contract::route).collect(Collectors.toSet()))
        .as("the answers checked")
        .contains(
            "POST /v1/payments 201",
            "POST /v1/payments 200",
            "POST /v1/payments 400",
            "POST /v1/payments 401",
            "POST /v1/payments 403",
            "POST /v1/payments 413",
            "POST /v1/payments 422",
            "GET /v1/payments/{id} 200",
            "GET /v1/payments/{id} 404",
            "POST /v1/payments/{id}/refunds 201",
            "POST /v1/payments/{id}/refunds 200",
            "POST /v1/payments/{id}/refunds 400",
            "POST /v1/payments/{id}/refunds 404",
            "POST /v1/payments/{id}/refunds 409",
            "GET /v1/payments/{id}/refunds 200",
            "GET /v1/refunds/{refundId} 200",
            "GET /v1/refunds/{refundId} 404",
            "POST /v1/admin/refunds/{refundId}/accept-as-refunded 202",
            "POST /v1/admin/refunds/{refundId}/mark-failed 400",
            "POST /v1/admin/refunds/{refundId}/requery 404",
            "POST /v1/admin/refunds/{refundId}/requery 409",
            "POST /v1/admin/refunds/{refundId}/signal-token 200",
            "POST /v1/webhooks/{channel} 200",
            "POST /v1/webhooks/{channel} 400",
            "POST /v1/webhooks/{channel} 401",
            "POST /v1/webhooks/{channel} 404",
            "POST /v1/webhooks/{channel} 413",
            "POST /v1/webhooks/{channel} 415",
            "POST /v1/webhooks/{channel} 503",
            "POST /v1/webhooks/{channel}/{merchant} 401",
            "GET /v1/admin/outbox 200",
            "GET /v1/admin/outbox 401",
            "GET /v1/admin/outbox 403",
            "POST /v1/admin/outbox/{eventId}/replay 409",
            "POST /v1/admin/payments/{id}/resolve 202",
            "POST /v1/admin/payments/{id}/resolve 413",
            "POST /v1/admin/payments/{id}/requery 202",
            "POST /v1/admin/payments/{id}/extend-deadline 202",
            "POST /v1/admin/payments/{id}/extend-deadline 400",
            "POST /v1/admin/payments/{id}/requery 409",
            "POST /v1/codec/decode 200",
            "OPTIONS /v1/codec/decode 204",
            "GET /health/ready 200",
            "GET /openapi.yaml 200",
            "GET /openapi.json 200");
  }

  @Test
  void theServedDocuments_areTheContract_asYamlAndAsJson() throws Exception {
    HttpResponse<String> yaml = get(false, OpenApiDocument.YAML_PATH);
    HttpResponse<String> json = get(true, OpenApiDocument.JSON_PATH);

    assertThat(yaml.statusCode()).isEqualTo(200);
    assertThat(yaml.headers().firstValue("Content-Type")).hasValue("application/yaml");
    try (InputStream in = getClass().getResourceAsStream(OpenApiDocument.RESOURCE)) {
      assertThat(yaml.body()).isEqualTo(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
    assertThat(ApiServer.jsonMapper().readTree(json.body()))
        .isEqualTo(new YAMLMapper().readTree(yaml.body()));
  }

  private List<HttpResponse<String>> payments() throws Exception {
    String body = createBody("o-contract", 1050);
    String token = api.admin.token();
    return List.of(
        create(body, "k-contract", token),
        create(body, "k-contract", token),
        create(createBody("o-other", 1050), "k-contract", token),
        create("{\"tenantId\":", null, token),
        create(createBody("o-bad", 0), null, token),
        create(body, null, null),
        create(body, null, READER.token()),
        create("{\"pad\":\"" + "x".repeat(ApiServer.MAX_REQUEST_BYTES) + "\"}", null, token),
        api.send("GET", false, "/v1/payments/" + paymentId(), null, token),
        api.send("HEAD", false, "/v1/payments/" + paymentId(), null, token),
        api.send("GET", false, "/v1/payments/pay_missing", null, token));
  }

  private List<HttpResponse<String>> refunds() throws Exception {
    String token = api.admin.token();
    PaymentRow p =
        Payments.paid(
            api.payments,
            new PaymentLedger(api.dsl, api.payments, new OutboxWriter(new EventJson())),
            Money.ofMinor(1050, "USD"),
            "c1");
    String path = "/v1/payments/" + p.paymentId() + "/refunds";
    String body = "{\"amountMinor\":1050,\"reason\":\"contract\"}";
    HttpResponse<String> created = refundPost(path, body, "k-refund", token);
    String refundId = ApiServer.jsonMapper().readTree(created.body()).path("refundId").asText();
    List<HttpResponse<String>> answers =
        new ArrayList<>(
            List.of(
                created,
                refundPost(path, body, "k-refund", token),
                refundPost(path, body, null, token),
                refundPost("/v1/payments/pay_missing/refunds", body, "k-missing", token),
                refundPost(path, body, "k-refund-2", token),
                api.send("GET", false, path, null, token),
                api.send("GET", false, "/v1/refunds/" + refundId, null, token),
                api.send("GET", false, "/v1/refunds/rfd_missing", null, token)));
    answers.addAll(refundFixes(refundId, token));
    return answers;
  }

  /** The fixes of a stuck refund: sent (no worker here, so PENDING), refused, settled. */
  private List<HttpResponse<String>> refundFixes(String refundId, String token) throws Exception {
    String fixes = "/v1/admin/refunds/" + refundId + "/";
    List<HttpResponse<String>> answers =
        new ArrayList<>(
            List.of(
                api.send(
                    "POST",
                    true,
                    fixes + "accept-as-refunded",
                    "{\"reason\":\"contract\",\"channelRefundId\":\"re_c\"}",
                    token),
                api.send("POST", true, fixes + "mark-failed", "{}", token),
                api.send(
                    "POST",
                    true,
                    "/v1/admin/refunds/rfd_missing/requery",
                    "{\"reason\":\"r\"}",
                    token),
                api.send(
                    "POST",
                    true,
                    fixes + "signal-token",
                    "{\"action\":\"MARK_FAILED\",\"reason\":\"r\"}",
                    token)));
    new RefundResolutions(api.dsl, new RefundOutcomes(api.dsl, new OutboxWriter(new EventJson())))
        .markFailed(
            new OperatorAction(
                "contract-" + refundId, "bob", "MARK_FAILED", "refund", refundId, "r"),
            refund -> ChannelRefundResult.notFound(refund.refundNo()));
    answers.add(api.send("POST", true, fixes + "requery", "{\"reason\":\"r\"}", token));
    return answers;
  }

  private static HttpResponse<String> refundPost(
      String path, String body, String idempotencyKey, String token) throws Exception {
    Map<String, String> headers = new HashMap<>(Map.of("Content-Type", JSON));
    if (idempotencyKey != null) {
      headers.put("Idempotency-Key", idempotencyKey);
    }
    headers.put("Authorization", "Bearer " + token);
    return api.request("POST", false, path, body.getBytes(StandardCharsets.UTF_8), headers);
  }

  private List<HttpResponse<String>> webhooks() throws Exception {
    String paymentId = paymentId();
    byte[] paid = notification(paymentId, "10.50").toJson();
    byte[] unknown = notification("pay_" + "0".repeat(32), "1.00").toJson();
    return List.of(
        webhook("/v1/webhooks/sandbox", paid, signed(paid)),
        webhook("/v1/webhooks/sandbox", paid, signed(paid)),
        webhook("/v1/webhooks/sandbox", unknown, signed(unknown)),
        webhook("/v1/webhooks/sandbox", paid, Map.of("Content-Type", JSON)),
        webhook("/v1/webhooks/sandbox", paid, Map.of("Content-Type", "text/plain")),
        webhook("/v1/webhooks/sandbox", "{}".getBytes(StandardCharsets.UTF_8), signed("{}")),
        webhook("/v1/webhooks/nowhere", paid, signed(paid)),
        webhook("/v1/webhooks/sandbox/m_unknown", paid, signed(paid)),
        webhook("/v1/webhooks/sandbox", new byte[TestApi.WEBHOOK_BODY_LIMIT + 1], signed("")));
  }

  private List<HttpResponse<String>> admin() throws Exception {
    String paymentId = paymentId();
    String eventId = api.outbox.forPayment(paymentId).get(0).eventId();
    String token = api.admin.token();
    String reason = "{\"reason\":\"contract\"}";
    // The webhooks paid paymentId; requery and extend-deadline need a PENDING one for their 202.
    String pending =
        ApiServer.jsonMapper()
            .readTree(create(createBody("o-contract-pending", 1050), null, token).body())
            .path("payment")
            .path("paymentId")
            .asText();
    return List.of(
        api.send("GET", true, "/v1/admin/outbox?status=SENT&limit=10", null, token),
        api.send("GET", true, "/v1/admin/outbox?status=PENDING", null, token),
        api.send("HEAD", true, "/v1/admin/outbox", null, token),
        api.send("GET", true, "/v1/admin/outbox", null, null),
        api.send("GET", true, "/v1/admin/outbox", null, READER.token()),
        api.send("GET", true, "/v1/admin/outbox?limit=0", null, token),
        api.send("GET", true, "/v1/admin/outbox/" + eventId, null, token),
        api.send("POST", true, "/v1/admin/outbox/" + eventId + "/replay", reason, token),
        api.send("POST", true, "/v1/admin/outbox/" + eventId + "/discard", reason, READER.token()),
        api.send("POST", true, "/v1/admin/outbox/replay", reason, token),
        api.send(
            "POST",
            true,
            "/v1/admin/payments/" + paymentId + "/resolve",
            "{\"reason\":\"contract\",\"action\":\"ACKNOWLEDGE\"}",
            token),
        api.send("POST", true, "/v1/admin/payments/" + paymentId + "/resolve", "{}", token),
        api.send(
            "POST",
            true,
            "/v1/admin/payments/" + paymentId + "/resolve",
            "{\"pad\":\"" + "x".repeat(ApiServer.MAX_REQUEST_BYTES) + "\"}",
            token),
        api.send("POST", true, "/v1/admin/payments/" + pending + "/requery", reason, token),
        api.send("POST", true, "/v1/admin/payments/" + paymentId + "/requery", reason, token),
        api.send(
            "POST",
            true,
            "/v1/admin/payments/" + pending + "/extend-deadline",
            "{\"reason\":\"contract\",\"by\":\"10m\"}",
            token),
        api.send("POST", true, "/v1/admin/payments/" + paymentId + "/extend-deadline", "{}", token),
        api.send(
            "POST",
            true,
            "/v1/admin/payments/" + paymentId + "/signal-token",
            "{\"action\":\"REQUERY\",\"reason\":\"contract\"}",
            token),
        api.send("GET", true, "/v1/admin/reconciliations/sandbox/2026-01-01", null, token),
        api.send("POST", true, "/v1/admin/reconciliations", "{\"channel\":\"x\"}", token),
        api.send("GET", true, "/v1/admin/consumers/notifications/quarantine", null, token),
        api.send("POST", true, "/v1/admin/consumers/notifications/quarantine/replay", "{}", token),
        api.send("POST", true, "/v1/codec/decode", "{\"payloads\":[]}", null),
        api.send("POST", true, "/v1/codec/encode", "not json", null),
        api.send("OPTIONS", true, "/v1/codec/decode", null, null),
        api.send("GET", true, "/metrics", null, null));
  }

  private List<HttpResponse<String>> everywhere() throws Exception {
    List<HttpResponse<String>> answers = new ArrayList<>();
    for (boolean adminListener : new boolean[] {false, true}) {
      for (String path :
          List.of("/health/live", "/health/ready", "/health", "/openapi.yaml", "/openapi.json")) {
        answers.add(get(adminListener, path));
        answers.add(api.send("HEAD", adminListener, path, null, null));
      }
    }
    return answers;
  }

  /** The payment {@link #payments()} created (the first call creates it). */
  private static String paymentId() throws Exception {
    HttpResponse<String> r =
        create(createBody("o-contract", 1050), "k-contract", api.admin.token());
    return ApiServer.jsonMapper().readTree(r.body()).path("payment").path("paymentId").asText();
  }

  private static String createBody(String orderId, long amountMinor) {
    return ("{\"tenantId\":\"t1\",\"orderId\":\"%s\",\"userId\":\"u1\",\"amountMinor\":%d,"
            + "\"currency\":\"USD\",\"courseIds\":[\"c1\"],\"channel\":\"sandbox\"}")
        .formatted(orderId, amountMinor);
  }

  private static HttpResponse<String> create(String body, String idempotencyKey, String token)
      throws Exception {
    Map<String, String> headers = new HashMap<>(Map.of("Content-Type", JSON));
    if (idempotencyKey != null) {
      headers.put("Idempotency-Key", idempotencyKey);
    }
    if (token != null) {
      headers.put("Authorization", "Bearer " + token);
    }
    return api.request(
        "POST", false, "/v1/payments", body.getBytes(StandardCharsets.UTF_8), headers);
  }

  private static SandboxNotification notification(String paymentId, String amount) {
    return new SandboxNotification(
        "ntf_contract_" + paymentId.hashCode(),
        TestApi.MERCHANT,
        paymentId,
        "sbx_contract",
        amount,
        "USD",
        "PAID",
        Instant.now());
  }

  private static Map<String, String> signed(String body) {
    return TestApi.signedCallback(body.getBytes(StandardCharsets.UTF_8));
  }

  private static Map<String, String> signed(byte[] body) {
    return TestApi.signedCallback(body);
  }

  private static HttpResponse<String> webhook(String path, byte[] body, Map<String, String> headers)
      throws Exception {
    return api.request("POST", false, path, body, headers);
  }

  private static HttpResponse<String> get(boolean adminListener, String path) throws Exception {
    return api.send("GET", adminListener, path, null, null);
  }

  private static TreeSet<String> minus(Set<String> a, Set<String> b) {
    TreeSet<String> rest = new TreeSet<>(a);
    rest.removeAll(b);
    return rest;
  }

  /**
   * Each registered route whose operation does not name its access ({@code x-payrelay-access}) or
   * whose security disagrees with it: a {@link Role} requires the API key, a {@link Public} does
   * not.
   */
  private static List<String> accessMismatches(boolean adminListener) {
    List<String> wrong = new ArrayList<>();
    for (RouteGuard.DeclaredRoute r : api.server.routes(adminListener)) {
      Operation op = contract.operation(r.method(), r.path()).orElse(null);
      if (op == null) {
        continue; // reported as an undocumented route
      }
      Object access =
          op.getExtensions() == null ? null : op.getExtensions().get("x-payrelay-access");
      List<SecurityRequirement> security =
          op.getSecurity() != null ? op.getSecurity() : contract.api().getSecurity();
      boolean keyRequired = !security.isEmpty() && security.stream().noneMatch(Map::isEmpty);
      if (!r.access().toString().equals(access) || keyRequired != r.access() instanceof Role) {
        wrong.add(r + " documented as " + access + " with security " + security);
      }
    }
    return wrong;
  }

  /** A broker on which no consumer has queues: every consumer is unknown (404). */
  private static final class NoConsumers implements QuarantineAdmin {
    @Override
    public Listing list(String consumer, int limit) {
      throw new NotFoundException("no consumer " + consumer);
    }

    @Override
    public Replay replay(String consumer, Selection selection, String reason, String operator) {
      throw new NotFoundException("no consumer " + consumer);
    }

    @Override
    public Discard discard(String consumer, String entryId, String reason, String operator) {
      throw new NotFoundException("no consumer " + consumer);
    }
  }
}

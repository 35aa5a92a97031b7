package dev.payrelay.api;

import static dev.payrelay.ledger.db.generated.Tables.OPERATOR_ACTION;
import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;
import static dev.payrelay.ledger.db.generated.Tables.WEBHOOK_INBOX;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.payrelay.api.admin.AdminService;
import dev.payrelay.api.admin.ReconciliationAdmin;
import dev.payrelay.api.admin.SignalTokenIssuer;
import dev.payrelay.api.admin.TemporalPaymentSignals;
import dev.payrelay.api.http.ApiServer;
import dev.payrelay.api.http.HttpLimits;
import dev.payrelay.channels.sandbox.SandboxNotification;
import dev.payrelay.channels.sandbox.SandboxSignature;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.ledger.operator.PaymentResolutions;
import dev.payrelay.ledger.outbox.DeadEvents;
import dev.payrelay.ledger.outbox.OutboxStore;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.payment.NewPayment;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.ledger.reconciliation.Reconciliation;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.ledger.testing.TestDatabase;
import dev.payrelay.workflows.ChannelQueryPolicy;
import dev.payrelay.workflows.ResolveSignal;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
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

  private static final String SECRET = TestApi.SECRET;
  private static final String MERCHANT = TestApi.MERCHANT;

  private static TestApi fixture;
  private static TestDatabase db;
  private static DSLContext dsl;
  private static PaymentStore payments;
  private static ApiServer api;
  private static TestApi.RecordingSignals signals;
  private static OutboxStore outbox;
  private static final HttpClient http = HttpClient.newHttpClient();

  @BeforeAll
  static void start() {
    fixture = new TestApi(ApiInputTest.class, false);
    db = fixture.db;
    dsl = fixture.dsl;
    payments = fixture.payments;
    api = fixture.server;
    signals = fixture.signals;
    outbox = fixture.outbox;
  }

  @AfterAll
  static void stop() {
    fixture.close();
  }

  @Test
  void resolveWhileTemporalIsDown_isAServiceUnavailable_auditedAsNotDelivered() throws Exception {
    PaymentRow p = payments.create(Payments.newPayment(Money.parse("1.00", "USD"), "c1")).payment();
    WorkflowServiceStubs nowhere = temporalNowhere();
    try {
      OutboxWriter writer = new OutboxWriter(new EventJson());
      AdminService admin =
          new AdminService(
              new PaymentResolutions(dsl, payments, writer),
              new DeadEvents(dsl),
              payments,
              outbox,
              new TemporalPaymentSignals(
                  WorkflowClient.newInstance(nowhere), Map.of(), ChannelQueryPolicy.DEFAULT),
              new SignalTokenIssuer(TestApi.TOKENS, payments, outbox));

      assertThatThrownBy(
              () ->
                  admin.resolve(
                      p.paymentId(),
                      new ResolveSignal(null, "by phone", "ACCEPT_AS_PAID"),
                      fixture.admin.key()))
          .isInstanceOf(ServiceUnavailableException.class)
          .hasMessageContaining("Temporal unavailable")
          .hasMessageContaining("not delivered (audited as operator_action");
      String audited =
          dsl.select(OPERATOR_ACTION.RESULT, OPERATOR_ACTION.DETAILS)
              .from(OPERATOR_ACTION)
              .where(OPERATOR_ACTION.TARGET_ID.eq(p.paymentId()))
              .fetchSingle(r -> r.value1() + " " + r.value2());
      assertThat(audited).startsWith("REJECTED not delivered: Temporal did not take the resolve");
    } finally {
      nowhere.shutdownNow();
    }
  }

  @Test
  void liveAndReady_answerSeparately() throws Exception {
    assertThat(get("/health/live").statusCode()).isEqualTo(200);
    HttpResponse<String> ready = get("/health/ready");
    assertThat(ready.statusCode()).isEqualTo(200);
    com.fasterxml.jackson.databind.JsonNode body =
        new com.fasterxml.jackson.databind.ObjectMapper().readTree(ready.body());
    assertThat(body.path("ready").asBoolean()).isTrue();
    assertThat(body.path("failing").size()).isZero();
    assertThat(body.path("dependencies").path("database").path("up").asBoolean()).isTrue();
    assertThat(body.path("dependencies").path("database").has("error")).isFalse();
  }

  @Test
  void bodyTrickledByteByByte_isCutWith408_whileHealthKeepsAnswering() throws Exception {
    List<Socket> slow = new ArrayList<>();
    try {
      for (int i = 0; i < 20; i++) {
        Socket s = new Socket("127.0.0.1", api.port());
        s.setSoTimeout(1000);
        s.getOutputStream()
            .write(
                ("POST /v1/webhooks/sandbox HTTP/1.1\r\nHost: x\r\nContent-Type:"
                        + " application/json\r\nContent-Length: 1000\r\n\r\n{")
                    .getBytes(StandardCharsets.US_ASCII));
        slow.add(s);
      }
      Socket stalled = slow.remove(slow.size() - 1);
      assertThat(get("/health").statusCode()).isEqualTo(200);
      // One byte per 200 ms on each: never idle long enough to time out, but never complete
      // within the body deadline. The server must end every one, not keep them for 1000 s.
      long bound =
          System.nanoTime()
              + HttpLimits.DEFAULTS
                  .bodyDeadline(TestApi.WEBHOOK_BODY_LIMIT + 1)
                  .plusSeconds(15)
                  .toNanos();
      List<String> answers = new ArrayList<>();
      while (answers.size() < slow.size() && System.nanoTime() < bound) {
        for (Socket s : slow) {
          if (s.isClosed()) {
            continue;
          }
          String answer = trickleOrAnswer(s);
          if (answer != null) {
            answers.add(answer);
            s.close();
          }
        }
        Thread.sleep(200);
      }
      assertThat(answers).hasSize(slow.size()).allMatch(a -> a.isEmpty() || a.contains(" 408 "));
      // The one that sent nothing more after its first byte: cut after the body idle timeout.
      stalled.setSoTimeout((int) Duration.ofSeconds(30).toMillis());
      String stalledAnswer =
          new String(stalled.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
      stalled.close();
      assertThat(stalledAnswer).isEqualTo("HTTP/1.1 408");
      assertThat(get("/health").statusCode()).isEqualTo(200);
    } finally {
      for (Socket s : slow) {
        s.close();
      }
    }
  }

  @Test
  void aSmallBodyInTwoPiecesAMomentApart_isAnsweredNormally_notCutAsSlow() throws Exception {
    byte[] body = "{\"unknown\":1}".getBytes(StandardCharsets.US_ASCII);
    try (Socket s = new Socket("127.0.0.1", api.port())) {
      s.setSoTimeout(15_000);
      s.getOutputStream()
          .write(
              ("POST /v1/payments HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                      + "Authorization: Bearer "
                      + fixture.admin.token()
                      + "\r\nContent-Length: "
                      + body.length
                      + "\r\n\r\n")
                  .getBytes(StandardCharsets.US_ASCII));
      s.getOutputStream().write(body, 0, 4);
      s.getOutputStream().flush();
      Thread.sleep(1_500);
      s.getOutputStream().write(body, 4, body.length - 4);
      s.getOutputStream().flush();
      String status = new String(s.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
      assertThat(status)
          .as("judged on its content (unknown field), not on its pace")
          .isEqualTo("HTTP/1.1 400");
    }
  }

  /** Writes one more body byte; returns the status line (or "" on close) once the server ended. */
  private static String trickleOrAnswer(Socket s) throws IOException {
    try {
      if (s.getInputStream().available() > 0) {
        return new String(s.getInputStream().readNBytes(s.getInputStream().available()))
            .lines()
            .findFirst()
            .orElse("");
      }
      s.getOutputStream().write('x');
      s.getOutputStream().flush();
      return null;
    } catch (SocketException e) {
      return "";
    }
  }

  @Test
  void identifiersWithBlanksAtAnEnd_areRefused_insteadOfCollidingUnderPadSpace() throws Exception {
    String valid =
        "{\"tenantId\":\"t\",\"orderId\":\"o-pad\",\"userId\":\"u\",\"amountMinor\":100,"
            + "\"currency\":\"USD\",\"courseIds\":[\"c1\"],\"channel\":\"sandbox\"}";
    Map<String, String> cases =
        Map.of(
            "courseIds[]", valid.replace("[\"c1\"]", "[\"c1\",\"c1 \"]"),
            "tenantId", valid.replace("\"t\"", "\" t\""),
            "orderId", valid.replace("\"o-pad\"", "\"o-pad\\t\""),
            "userId", valid.replace("\"u\"", "\"u \""));
    for (Map.Entry<String, String> c : cases.entrySet()) {
      HttpResponse<String> r = createPayment(c.getValue(), null);
      assertThat(r.statusCode()).as(c.getKey() + ": " + r.body()).isEqualTo(400);
      assertThat(r.body()).contains(c.getKey() + " must not start or end with a blank");
    }
    assertThat(createPayment(valid.replace("\"u\"", "\"u\\u0007x\""), null).body())
        .contains("userId must not contain control or format characters (U+0007)");
    assertThat(dsl.fetchCount(PAYMENT_ORDER, PAYMENT_ORDER.ORDER_ID.like("o-pad%"))).isZero();
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
  void callbackForAPaymentWhoseAccountIsNotConfigured_is401UnknownAccount_andRecorded()
      throws Exception {
    NewPayment template = Payments.newPayment(Money.parse("1.00", "USD"), "c1");
    PaymentRow p =
        payments
            .create(
                new NewPayment(
                    template.tenantId(),
                    template.orderId(),
                    template.userId(),
                    template.channel(),
                    "m_removed_account",
                    template.amount(),
                    template.courseIds(),
                    null,
                    null,
                    Duration.ofMinutes(30)))
            .payment();
    SandboxNotification n =
        new SandboxNotification(
            "n-removed",
            "m_removed_account",
            p.paymentId(),
            "sbx_removed",
            "1.00",
            "USD",
            "PAID",
            Instant.now());

    // Signed with the default account's secret, which must not verify another account's payment.
    HttpResponse<String> r = webhook("sandbox", n.toJson(), signed(n.toJson()));

    assertThat(r.statusCode()).isEqualTo(401);
    assertThat(r.body()).contains("UNKNOWN_ACCOUNT");
    assertThat(dsl.fetchCount(WEBHOOK_INBOX, WEBHOOK_INBOX.OUTCOME.eq("UNKNOWN_ACCOUNT")))
        .isEqualTo(1);
    assertThat(payments.find(p.paymentId()).orElseThrow().status().name()).isEqualTo("PENDING");
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
  void paymentIdInAnotherCase_isNotOurs_acknowledged_andNeverConfirmsOurs() throws Exception {
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

    // Ids are compared exactly: an upper-cased id is not of the form payrelay mints, so no retry
    // can make it ours and the channel is told to stop.
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body()).contains("NOT_OURS");
    assertThat(payments.find(p.paymentId()).orElseThrow().status().name()).isEqualTo("PENDING");
  }

  @Test
  void credentialsInHeaders_areNotStored() throws Exception {
    Map<String, String> headers =
        new HashMap<>(Map.of("Authorization", "Bearer top-secret", "X-Api-Key", "top-secret-2"));
    webhook("sandbox", "{}".getBytes(), headers);
    List<String> stored =
        dsl.select(WEBHOOK_INBOX.HEADERS).from(WEBHOOK_INBOX).fetch(WEBHOOK_INBOX.HEADERS);
    assertThat(stored).noneMatch(h -> h.contains("top-secret"));
    assertThat(stored).noneMatch(h -> h.contains("top-secret-2"));
    assertThat(stored).anyMatch(h -> h.contains("[redacted]"));
  }

  @Test
  void idempotencyKeyReusedWithCoursesThatOnlyConcatenateAlike_isAConflict() throws Exception {
    String body =
        "{\"tenantId\":\"t\",\"orderId\":\"o-idem\",\"userId\":\"u\",\"amountMinor\":100,"
            + "\"currency\":\"USD\",\"courseIds\":%s,\"channel\":\"sandbox\"}";
    HttpResponse<String> first = createPayment(body.formatted("[\"a\\\",\\\"b\"]"), "key-1");
    HttpResponse<String> second = createPayment(body.formatted("[\"a\",\"b\"]"), "key-1");

    // The channel is unreachable here: the payment is stored, the client is told to retry (502).
    assertThat(first.statusCode()).isEqualTo(502);
    assertThat(second.statusCode()).isEqualTo(422);
    assertThat(dsl.fetchCount(PAYMENT_ORDER, PAYMENT_ORDER.ORDER_ID.eq("o-idem"))).isEqualTo(1);
  }

  @Test
  void oversizedBody_is413_andItsFirstBytesAreRecorded() throws Exception {
    byte[] big = ("{\"pad\":\"" + "x".repeat(10_000) + "\"}").getBytes(StandardCharsets.UTF_8);
    HttpResponse<String> r = webhook("sandbox", big, signed(big));

    assertThat(r.statusCode()).isEqualTo(413);
    var row =
        dsl.selectFrom(WEBHOOK_INBOX)
            .where(WEBHOOK_INBOX.OUTCOME.eq("PAYLOAD_TOO_LARGE"))
            .fetchSingle();
    assertThat(row.getRawBody()).hasSize(4096);
  }

  @Test
  void wrongContentType_is415_andRecorded() throws Exception {
    SandboxNotification n =
        new SandboxNotification(
            "n-ct", MERCHANT, "p1", "t-ct", "1.00", "USD", "PAID", Instant.now());
    Map<String, String> headers = new HashMap<>(signed(n.toJson()));
    headers.put("Content-Type", "application/x-www-form-urlencoded");

    assertThat(webhook("sandbox", n.toJson(), headers).statusCode()).isEqualTo(415);
    assertThat(dsl.fetchCount(WEBHOOK_INBOX, WEBHOOK_INBOX.OUTCOME.eq("UNSUPPORTED_MEDIA_TYPE")))
        .isEqualTo(1);
  }

  @Test
  void replayOutsideTheWindow_isRejectedBeforeAnyBusinessWrite() throws Exception {
    PaymentRow p = payments.create(Payments.newPayment(Money.parse("1.00", "USD"), "c1")).payment();
    SandboxNotification n =
        new SandboxNotification(
            "n-old",
            MERCHANT,
            p.paymentId(),
            "t-old-" + p.paymentId(),
            "1.00",
            "USD",
            "PAID",
            Instant.now());
    Clock sixMinutesAgo = Clock.offset(Clock.systemUTC(), Duration.ofMinutes(-6));

    HttpResponse<String> r = webhook("sandbox", n.toJson(), signedAt(n.toJson(), sixMinutesAgo));

    assertThat(r.statusCode()).isEqualTo(401);
    assertThat(r.body()).contains("STALE_TIMESTAMP");
    assertThat(payments.find(p.paymentId()).orElseThrow().status().name()).isEqualTo("PENDING");
    assertThat(
            dsl.fetchCount(
                OUTBOX_EVENT,
                OUTBOX_EVENT
                    .AGGREGATE_ID
                    .eq(p.paymentId())
                    .and(OUTBOX_EVENT.EVENT_TYPE.ne("PaymentCreated"))))
        .isZero();
  }

  @Test
  void adminResolve_withoutReasonOrWithUnknownAction_is400_andAuditedAsRejected() throws Exception {
    PaymentRow p = payments.create(Payments.newPayment(Money.parse("1.00", "USD"), "c1")).payment();

    HttpResponse<String> noReason = admin(p.paymentId(), "{\"action\":\"CLOSE\"}");
    HttpResponse<String> badAction = admin(p.paymentId(), "{\"reason\":\"r\",\"action\":\"DROP\"}");

    assertThat(noReason.statusCode()).isEqualTo(400);
    assertThat(noReason.body()).contains("reason is required");
    assertThat(badAction.statusCode()).isEqualTo(400);
    assertThat(
            dsl.fetchCount(
                OPERATOR_ACTION,
                OPERATOR_ACTION
                    .TARGET_ID
                    .eq(p.paymentId())
                    .and(OPERATOR_ACTION.RESULT.eq("REJECTED"))))
        .isEqualTo(2);
  }

  @Test
  void adminResolve_unknownPayment_is404_andAValidOneSignalsThePaymentsWorkflow() throws Exception {
    PaymentRow p = payments.create(Payments.newPayment(Money.parse("1.00", "USD"), "c1")).payment();
    String valid = "{\"operator\":\"bob\",\"reason\":\"r\",\"action\":\"CLOSE\"}";

    assertThat(admin("pay_missing", valid).statusCode()).isEqualTo(404);
    HttpResponse<String> sent = admin(p.paymentId(), valid);

    assertThat(sent.statusCode()).isEqualTo(202);
    assertThat(sent.body()).contains("payment-" + p.paymentId());
    assertThat(signals.sent).contains("resolve " + p.paymentId() + " CLOSE bob");
  }

  @Test
  void adminOutbox_listsDeadEventsWithAgeAndError_andReplaySignalsTheirWorkflow() throws Exception {
    PaymentRow p = payments.create(Payments.newPayment(Money.parse("1.00", "USD"), "c1")).payment();
    String eventId = outbox.forPayment(p.paymentId()).get(0).eventId();
    outbox.markDead(eventId, "UNROUTABLE: no binding");

    HttpResponse<String> list = get("/v1/admin/outbox?status=DEAD");
    HttpResponse<String> badStatus = get("/v1/admin/outbox?status=LOST");
    HttpResponse<String> noReason =
        post("/v1/admin/outbox/" + eventId + "/replay", "{\"operator\":\"bob\"}");
    HttpResponse<String> replay =
        post(
            "/v1/admin/outbox/" + eventId + "/replay",
            "{\"operator\":\"bob\",\"reason\":\"binding restored\"}");

    assertThat(list.statusCode()).isEqualTo(200);
    assertThat(list.body())
        .contains(eventId)
        .contains("UNROUTABLE: no binding")
        .contains("ageSeconds");
    assertThat(badStatus.statusCode()).isEqualTo(400);
    assertThat(noReason.statusCode()).isEqualTo(400);
    assertThat(
            dsl.fetchCount(
                OPERATOR_ACTION,
                OPERATOR_ACTION.TARGET_ID.eq(eventId).and(OPERATOR_ACTION.RESULT.eq("REJECTED"))))
        .isEqualTo(1);
    assertThat(replay.statusCode()).isEqualTo(202);
    assertThat(signals.sent).contains("replayEvent " + p.paymentId() + " " + eventId + " bob");
  }

  @Test
  void replayOfAnEventThatIsNotDead_is409_andAuditedWithoutASignal() throws Exception {
    PaymentRow p = payments.create(Payments.newPayment(Money.parse("1.00", "USD"), "c1")).payment();
    String eventId = outbox.forPayment(p.paymentId()).get(0).eventId();

    HttpResponse<String> r =
        post(
            "/v1/admin/outbox/" + eventId + "/replay",
            "{\"operator\":\"bob\",\"reason\":\"why not\"}");

    assertThat(r.statusCode()).isEqualTo(409);
    assertThat(r.body()).contains("PENDING, not DEAD");
    assertThat(
            dsl.fetchCount(
                OPERATOR_ACTION,
                OPERATOR_ACTION.TARGET_ID.eq(eventId).and(OPERATOR_ACTION.RESULT.eq("REJECTED"))))
        .isEqualTo(1);
    assertThat(signals.sent).noneMatch(sent -> sent.contains(eventId));
  }

  @Test
  void reconciliationStartedWhileTemporalIsDown_isAServiceUnavailable_namingTemporal()
      throws Exception {
    WorkflowServiceStubs nowhere = temporalNowhere();
    try {
      ReconciliationAdmin reconciliations =
          new ReconciliationAdmin(
              new Reconciliation(dsl, payments, new OutboxWriter(new EventJson())),
              fixture.channels,
              WorkflowClient.newInstance(nowhere));

      assertThatThrownBy(
              () ->
                  reconciliations.start(
                      "sandbox",
                      java.time.LocalDate.now(java.time.ZoneOffset.UTC).toString(),
                      null,
                      fixture.admin.key()))
          .isInstanceOf(ServiceUnavailableException.class)
          .hasMessageStartingWith("Temporal unavailable: the reconciliation of sandbox for ")
          .hasMessageContaining("UNAVAILABLE");
    } finally {
      nowhere.shutdownNow();
    }
  }

  @Test
  void reconciliationOfAFutureOrSignedOrUnknownDay_is400() throws Exception {
    String tomorrow = java.time.LocalDate.now(java.time.ZoneOffset.UTC).plusDays(1).toString();
    for (String date : List.of(tomorrow, "+12026-11-29", "2026-02-30", "0001-01-01", "yesterday")) {
      HttpResponse<String> r =
          post("/v1/admin/reconciliations", "{\"channel\":\"sandbox\",\"date\":\"" + date + "\"}");
      assertThat(r.statusCode()).as(date).isEqualTo(400);
    }
    assertThat(
            post("/v1/admin/reconciliations", "{\"channel\":\"nope\",\"date\":\"2026-01-01\"}")
                .statusCode())
        .isEqualTo(400);
  }

  /** Stubs for a Temporal frontend at a closed local port: every call fails UNAVAILABLE. */
  private static WorkflowServiceStubs temporalNowhere() throws java.io.IOException {
    int closedPort;
    try (ServerSocket s = new ServerSocket(0)) {
      closedPort = s.getLocalPort();
    }
    return WorkflowServiceStubs.newServiceStubs(
        WorkflowServiceStubsOptions.newBuilder()
            .setTarget("127.0.0.1:" + closedPort)
            .setRpcTimeout(Duration.ofSeconds(2))
            .build());
  }

  /** Records the signals the admin API sends; Temporal itself is exercised in the worker's E2E. */
  private static HttpResponse<String> get(String path) throws Exception {
    return fixture.send("GET", false, path, null, fixture.admin.token());
  }

  private static HttpResponse<String> post(String path, String body) throws Exception {
    return fixture.send("POST", false, path, body, fixture.admin.token());
  }

  private static HttpResponse<String> admin(String paymentId, String body) throws Exception {
    return post("/v1/admin/payments/" + paymentId + "/resolve", body);
  }

  private static Map<String, String> signed(byte[] raw) {
    return signedAt(raw, Clock.systemUTC());
  }

  private static Map<String, String> signedAt(byte[] raw, Clock clock) {
    Map<String, String> headers =
        new HashMap<>(new SandboxSignature(SECRET, Duration.ofMinutes(5), clock).headersFor(raw));
    headers.put("Content-Type", "application/json; charset=utf-8");
    return headers;
  }

  private static HttpResponse<String> createPayment(String body, String idempotencyKey)
      throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + api.port() + "/v1/payments"))
            .header("Content-Type", "application/json")
            .header("Authorization", "Bearer " + fixture.admin.token())
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

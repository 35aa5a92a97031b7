package dev.payrelay.e2e;

import static dev.payrelay.ledger.db.generated.Tables.ENTITLEMENT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Message;
import com.google.protobuf.util.JsonFormat;
import dev.payrelay.api.http.CodecEndpoint;
import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.workflows.PaymentSearchAttributes;
import dev.payrelay.workflows.WorkflowIds;
import io.temporal.api.common.v1.Payload;
import io.temporal.api.common.v1.Payloads;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.history.v1.History;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.api.history.v1.MarkerRecordedEventAttributes;
import io.temporal.api.workflowservice.v1.GetWorkflowExecutionHistoryRequest;
import io.temporal.api.workflowservice.v1.GetWorkflowExecutionHistoryResponse;
import io.temporal.client.WorkflowClient;
import io.temporal.payload.codec.PayloadCodec;
import io.temporal.payload.codec.PayloadCodecException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A whole payrelay with {@code PAYRELAY_PAYLOAD_KEY} set, on the real Temporal dev server: the
 * payment goes through, and the history the server stores carries no order or user id in its
 * payloads.
 */
class PayloadEncryptionEndToEndTest {

  /** The application's data in a local activity marker's details. */
  private static final List<String> LOCAL_ACTIVITY_DATA = List.of("input", "result");

  private static final String KEY_ID = "k-e2e-1";
  private static final String KEY = newKey();
  private static PayrelayHarness payrelay;

  @BeforeAll
  static void start() throws Exception {
    payrelay =
        new PayrelayHarness(
            PayloadEncryptionEndToEndTest.class,
            Map.of("PAYRELAY_PAYLOAD_KEY", KEY, "PAYRELAY_PAYLOAD_KEY_ID", KEY_ID));
  }

  @AfterAll
  static void stop() throws Exception {
    payrelay.close();
  }

  @Test
  void paymentIsFulfilled_andItsHistoryOnTheServerHidesOrderAndUserIds() throws Exception {
    String orderId = "order-" + UUID.randomUUID();
    String userId = "user-" + UUID.randomUUID();
    String paymentId = create(orderId, userId);
    assertThat(payrelay.payAtSandbox(paymentId, "{}").statusCode()).isEqualTo(200);

    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> granted(paymentId) == 1 && "FULFILLED".equals(paymentState(paymentId)));

    History raw = rawHistory(paymentId);
    List<Payload> payloads = payloadsIn(raw);
    assertThat(payloads).isNotEmpty();
    assertThat(payloads)
        .allSatisfy(
            p -> {
              assertThat(p.getMetadataOrThrow("encoding").toStringUtf8())
                  .isEqualTo("binary/encrypted");
              assertThat(p.getMetadataOrThrow("encryption-key-id").toStringUtf8())
                  .isEqualTo(KEY_ID);
            });
    String rawText = withoutSearchAttributes(raw).toByteString().toString(StandardCharsets.UTF_8);
    assertThat(rawText).doesNotContain(orderId, userId);

    String decoded = text(harnessCodec().decode(payloads));
    assertThat(decoded).contains(orderId);
  }

  @Test
  void theApisCodecEndpoint_decodesTheServersPayloadsForTheUi() throws Exception {
    String orderId = "order-" + UUID.randomUUID();
    String paymentId = create(orderId, "user-ui");
    List<Payload> payloads = payloadsIn(rawHistory(paymentId));
    String body =
        JsonFormat.printer().print(Payloads.newBuilder().addAllPayloads(payloads).build());

    HttpResponse<String> r =
        payrelay.post(
            payrelay.api("/v1/codec/decode"),
            body.getBytes(StandardCharsets.UTF_8),
            Map.of(
                "Content-Type", "application/json",
                "Origin", "http://localhost:8233",
                "X-Namespace", payrelay.config.temporal().namespace()));

    HttpResponse<String> withoutKey =
        payrelay.post(
            payrelay.api("/v1/codec/decode"),
            body.getBytes(StandardCharsets.UTF_8),
            Map.of(
                "Content-Type", "application/json",
                "Authorization", "Bearer not-a-key",
                "Origin", "http://localhost:8233"));

    assertThat(withoutKey.statusCode()).isEqualTo(401);
    assertThat(withoutKey.body()).doesNotContain(orderId);
    assertThat(body).doesNotContain(orderId);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    Payloads.Builder decoded = Payloads.newBuilder();
    JsonFormat.parser().merge(r.body(), decoded);
    assertThat(text(decoded.getPayloadsList())).contains(orderId);
    assertThat(r.headers().firstValue("Access-Control-Allow-Origin"))
        .hasValue("http://localhost:8233");
  }

  @Test
  void afterKeyRotation_theOldKeyStillReadsTheHistory_andWithoutItTheErrorNamesTheKeyId()
      throws Exception {
    String orderId = "order-" + UUID.randomUUID();
    String paymentId = create(orderId, "user-rot");
    assertThat(payrelay.payAtSandbox(paymentId, "{}").statusCode()).isEqualTo(200);
    await().atMost(Duration.ofSeconds(30)).until(() -> granted(paymentId) == 1);
    List<Payload> payloads = payloadsIn(rawHistory(paymentId));

    PayloadCodec rotated = rotatedCodec(Map.of("PAYRELAY_PAYLOAD_OLD_KEYS", KEY_ID + ":" + KEY));
    assertThat(text(rotated.decode(payloads))).contains(orderId);

    PayloadCodec oldKeyDropped = rotatedCodec(Map.of());
    assertThatThrownBy(() -> oldKeyDropped.decode(payloads))
        .isInstanceOf(PayloadCodecException.class)
        .hasMessageContaining("'" + KEY_ID + "'");
  }

  @Test
  void temporalCli_withTheApisCodecEndpoint_showsTheHistoryDecoded() throws Exception {
    String orderId = "order-" + UUID.randomUUID();
    String paymentId = create(orderId, "user-cli");
    String codecEndpoint = payrelay.api(CodecEndpoint.PATH).toString();

    String encrypted = cliShow(paymentId);
    String decoded =
        cliShow(
            paymentId,
            "--codec-endpoint",
            codecEndpoint,
            "--codec-auth",
            "Bearer " + PayrelayHarness.KEY.token());

    assertThat(payloadData(encrypted)).isNotEmpty().doesNotContain(orderId);
    assertThat(payloadData(decoded)).contains(orderId);
  }

  /**
   * Every payload's {@code data} (base64 in the CLI's JSON) in a history JSON, decoded, joined;
   * search attributes left out (plain by design).
   */
  private static String payloadData(String historyJson) throws Exception {
    JsonNode history = new ObjectMapper().readTree(historyJson);
    for (JsonNode parent : history.findParents("searchAttributes")) {
      ((ObjectNode) parent).remove("searchAttributes");
    }
    StringBuilder s = new StringBuilder();
    for (JsonNode data : history.findValues("data")) {
      if (data.isTextual()) {
        s.append(new String(Base64.getDecoder().decode(data.asText()), StandardCharsets.UTF_8));
      }
    }
    return s.toString();
  }

  /** {@code temporal workflow show -o json} of the payment's workflow, plus {@code extra}. */
  private static String cliShow(String paymentId, String... extra) throws Exception {
    List<String> command =
        new ArrayList<>(
            List.of(
                System.getenv().getOrDefault("PAYRELAY_TEMPORAL_CLI", "temporal"),
                "workflow",
                "show",
                "-w",
                WorkflowIds.payment(paymentId),
                "--address",
                payrelay.config.temporal().target(),
                "--namespace",
                payrelay.config.temporal().namespace(),
                "-o",
                "json"));
    command.addAll(List.of(extra));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).as(out).isZero();
    return out;
  }

  /** The codec the harness's payrelay runs with. */
  private static PayloadCodec harnessCodec() {
    return PayrelayConfig.fromEnv(payrelay.env).temporal().security().payloadCodec().orElseThrow();
  }

  /** A codec configured with a new current key under a new id, plus {@code extra} settings. */
  private static PayloadCodec rotatedCodec(Map<String, String> extra) {
    Map<String, String> env = new HashMap<>(payrelay.env);
    env.put("PAYRELAY_PAYLOAD_KEY", newKey());
    env.put("PAYRELAY_PAYLOAD_KEY_ID", "k-e2e-2");
    env.putAll(extra);
    return PayrelayConfig.fromEnv(env).temporal().security().payloadCodec().orElseThrow();
  }

  private static String create(String orderId, String userId) throws Exception {
    String body =
        new ObjectMapper()
            .writeValueAsString(
                Map.of(
                    "tenantId",
                    "t1",
                    "orderId",
                    orderId,
                    "userId",
                    userId,
                    "amountMinor",
                    990,
                    "currency",
                    "USD",
                    "courseIds",
                    List.of("course-enc"),
                    "channel",
                    "sandbox"));
    HttpResponse<String> r = payrelay.postJson("/v1/payments", body);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    String paymentId =
        new ObjectMapper().readTree(r.body()).path("payment").path("paymentId").asText();
    // The dispatcher starts the payment's workflow shortly after the commit.
    await()
        .atMost(Duration.ofSeconds(30))
        .ignoreExceptions()
        .until(() -> paymentState(paymentId) != null);
    return paymentId;
  }

  /** The history as the server stores it, fetched without any codec. */
  private static History rawHistory(String paymentId) {
    WorkflowClient client = payrelay.stack.temporal().client();
    History.Builder history = History.newBuilder();
    GetWorkflowExecutionHistoryRequest.Builder request =
        GetWorkflowExecutionHistoryRequest.newBuilder()
            .setNamespace(client.getOptions().getNamespace())
            .setExecution(
                WorkflowExecution.newBuilder().setWorkflowId(WorkflowIds.payment(paymentId)));
    do {
      GetWorkflowExecutionHistoryResponse page =
          client
              .getWorkflowServiceStubs()
              .blockingStub()
              .getWorkflowExecutionHistory(request.build());
      history.addAllEvents(page.getHistory().getEventsList());
      request.setNextPageToken(page.getNextPageToken());
    } while (!request.getNextPageToken().isEmpty());
    return history.build();
  }

  /**
   * The history without its search attributes, which are plain by design: the visibility store
   * indexes them ({@link PaymentSearchAttributes}, the order id among them).
   */
  private static History withoutSearchAttributes(History history) {
    History.Builder b = History.newBuilder();
    for (HistoryEvent e : history.getEventsList()) {
      HistoryEvent.Builder eb = e.toBuilder();
      if (eb.hasWorkflowExecutionStartedEventAttributes()) {
        eb.getWorkflowExecutionStartedEventAttributesBuilder().clearSearchAttributes();
      }
      if (eb.hasUpsertWorkflowSearchAttributesEventAttributes()) {
        eb.getUpsertWorkflowSearchAttributesEventAttributesBuilder().clearSearchAttributes();
      }
      b.addEvents(eb);
    }
    return b.build();
  }

  /**
   * Every Payload anywhere in the history (inputs, results, signals, failures, memos) but search
   * attributes and what the SDK writes with its standard converter for its own bookkeeping: version
   * markers ({@code Workflow.getVersion}: a change id and a number) and a local activity marker's
   * header (activity id, type, time, attempt); that marker's input, result and failure are kept.
   */
  private static List<Payload> payloadsIn(History history) {
    List<Payload> found = new ArrayList<>();
    for (HistoryEvent e : withoutSearchAttributes(history).getEventsList()) {
      if (e.hasMarkerRecordedEventAttributes()) {
        MarkerRecordedEventAttributes marker = e.getMarkerRecordedEventAttributes();
        if (marker.getMarkerName().equals("Version")) {
          continue;
        }
        if (marker.getMarkerName().equals("LocalActivity")) {
          LOCAL_ACTIVITY_DATA.forEach(key -> collect(marker.getDetailsOrDefault(key, null), found));
          collect(marker.getFailure(), found);
          continue;
        }
      }
      collect(e, found);
    }
    return found;
  }

  private static void collect(Object value, List<Payload> found) {
    if (value instanceof Payload p) {
      found.add(p);
    } else if (value instanceof Message m) {
      m.getAllFields().values().forEach(v -> collect(v, found));
    } else if (value instanceof List<?> list) {
      list.forEach(v -> collect(v, found));
    }
  }

  private static String text(List<Payload> payloads) {
    StringBuilder s = new StringBuilder();
    payloads.forEach(p -> s.append(p.getData().toStringUtf8()).append('\n'));
    return s.toString();
  }

  private static String paymentState(String paymentId) {
    return payrelay.paymentState(paymentId);
  }

  private static int granted(String paymentId) {
    return payrelay
        .stack
        .services()
        .database()
        .dsl()
        .fetchCount(ENTITLEMENT, ENTITLEMENT.PURCHASE_ID.eq(paymentId));
  }

  private static String newKey() {
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    return Base64.getEncoder().encodeToString(key);
  }
}

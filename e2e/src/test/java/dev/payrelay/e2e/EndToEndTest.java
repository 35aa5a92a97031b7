package dev.payrelay.e2e;

import static dev.payrelay.ledger.db.generated.Tables.ENTITLEMENT;
import static dev.payrelay.ledger.db.generated.Tables.OPERATOR_ACTION;
import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_EXCEPTION;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;
import static dev.payrelay.ledger.db.generated.Tables.WEBHOOK_INBOX;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.GetResponse;
import dev.payrelay.channels.sandbox.SandboxNotification;
import dev.payrelay.workflows.PaymentSearchAttributes;
import dev.payrelay.workflows.WorkflowIds;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The main job on real signed HTTP callbacks, MariaDB, RabbitMQ and a Temporal test server. */
class EndToEndTest {

  private static final Duration TRAIL_TIMEOUT = Duration.ofSeconds(30);
  private static PayrelayHarness payrelay;
  private static DSLContext dsl;

  @BeforeAll
  static void start() throws Exception {
    payrelay = new PayrelayHarness(EndToEndTest.class);
    dsl = payrelay.stack.services().database().dsl();
  }

  @AfterAll
  static void stop() throws Exception {
    payrelay.close();
  }

  @Test
  void sandboxPays_paymentIsPaid_eventSentOnce_messageRouted_entitlementsGranted()
      throws Exception {
    String paymentId = payrelay.createPayment(1050, "USD", "course-a", "course-b");
    HttpResponse<String> pay = payrelay.payAtSandbox(paymentId, "{}");
    assertThat(pay.statusCode()).isEqualTo(200);

    await()
        .atMost(TRAIL_TIMEOUT)
        .until(() -> sentEvents(paymentId) == 2 && granted(paymentId) == 2);

    assertThat(status(paymentId)).isEqualTo("PAID");
    await().atMost(TRAIL_TIMEOUT).until(() -> "FULFILLED".equals(paymentState(paymentId)));
    var attributes =
        payrelay
            .stack
            .temporal()
            .client()
            .newUntypedWorkflowStub(WorkflowIds.payment(paymentId))
            .describe()
            .getTypedSearchAttributes();
    assertThat(attributes.get(PaymentSearchAttributes.PAYMENT_ID)).isEqualTo(paymentId);
    assertThat(attributes.get(PaymentSearchAttributes.TENANT_ID)).isEqualTo("t1");
    assertThat(attributes.get(PaymentSearchAttributes.ORDER_ID)).startsWith("o-");
    String confirmedId = confirmedEventIds(paymentId).get(0);
    List<GetResponse> messages = drainFor(paymentId);
    assertThat(messages).extracting(m -> m.getProps().getMessageId()).containsOnlyOnce(confirmedId);
    GetResponse confirmed =
        messages.stream()
            .filter(m -> m.getProps().getMessageId().equals(confirmedId))
            .findFirst()
            .orElseThrow();
    assertThat(confirmed.getEnvelope().getRoutingKey()).isEqualTo("payment.confirmed");
    assertThat(confirmed.getProps().getDeliveryMode()).isEqualTo(2);
    JsonNode body = new ObjectMapper().readTree(confirmed.getBody());
    assertThat(body.path("amountMinor").asLong()).isEqualTo(1050);
    assertThat(body.path("courseIds")).hasSize(2);
  }

  @Test
  void sameCallbackTwiceInARow_isAcceptedOnce_andGrantsOncePerCourse() throws Exception {
    String paymentId = payrelay.createPayment(500, "JPY", "c1", "c2");
    PayrelayHarness.SignedCallback cb =
        payrelay.signedCallback(paid(paymentId, "sbx_twice_" + paymentId, "500", "JPY"));

    HttpResponse<String> first = payrelay.postWebhook(cb.raw(), cb.headers());
    HttpResponse<String> second = payrelay.postWebhook(cb.raw(), cb.headers());

    assertThat(first.statusCode()).isEqualTo(200);
    assertThat(first.body()).contains("CONFIRMED");
    assertThat(second.statusCode()).isEqualTo(200);
    assertThat(second.body()).contains("DUPLICATE");
    await()
        .atMost(TRAIL_TIMEOUT)
        .until(() -> sentEvents(paymentId) == 2 && granted(paymentId) == 2);
    assertThat(confirmedEventIds(paymentId)).hasSize(1);
    assertThat(
            dsl.fetchCount(
                PAYMENT_ORDER,
                PAYMENT_ORDER.PAYMENT_ID.eq(paymentId).and(PAYMENT_ORDER.VERSION.eq(1))))
        .isEqualTo(1);
  }

  @Test
  void sameCallbackTenTimesConcurrently_isConfirmedOnce_andGrantsOncePerCourse() throws Exception {
    String paymentId = payrelay.createPayment(2000, "EUR", "x", "y", "z");
    PayrelayHarness.SignedCallback cb =
        payrelay.signedCallback(paid(paymentId, "sbx_ten_" + paymentId, "20.00", "EUR"));

    List<HttpResponse<String>> answers =
        concurrently(10, () -> payrelay.postWebhook(cb.raw(), cb.headers()));

    assertThat(answers).allSatisfy(a -> assertThat(a.statusCode()).isEqualTo(200));
    assertThat(answers).filteredOn(a -> a.body().contains("CONFIRMED")).hasSize(1);
    assertThat(answers).filteredOn(a -> a.body().contains("DUPLICATE")).hasSize(9);
    await()
        .atMost(TRAIL_TIMEOUT)
        .until(() -> sentEvents(paymentId) == 2 && granted(paymentId) == 3);
    assertThat(confirmedEventIds(paymentId)).hasSize(1);
    assertThat(dsl.fetchCount(WEBHOOK_INBOX, WEBHOOK_INBOX.PAYMENT_ID.eq(paymentId))).isEqualTo(10);
  }

  @Test
  void reserializedOrTamperedCallback_gets401_andLeavesPaymentPendingWithoutEvent()
      throws Exception {
    String paymentId = payrelay.createPayment(1050, "USD", "c1");
    PayrelayHarness.SignedCallback cb =
        payrelay.signedCallback(paid(paymentId, "sbx_t_" + paymentId, "10.50", "USD"));
    ObjectMapper json = new ObjectMapper();
    byte[] reserialized =
        json.writerWithDefaultPrettyPrinter().writeValueAsBytes(json.readTree(cb.raw()));
    byte[] tampered = cb.raw().clone();
    int digit = new String(tampered, StandardCharsets.UTF_8).indexOf("10.50") + 1;
    tampered[digit] = (byte) '1';

    assertThat(json.readTree(reserialized)).isEqualTo(json.readTree(cb.raw()));
    assertThat(payrelay.postWebhook(reserialized, cb.headers()).statusCode()).isEqualTo(401);
    assertThat(payrelay.postWebhook(tampered, cb.headers()).statusCode()).isEqualTo(401);

    assertThat(status(paymentId)).isEqualTo("PENDING");
    assertThat(confirmedEventIds(paymentId)).isEmpty();
    assertThat(
            dsl.fetchCount(
                WEBHOOK_INBOX,
                WEBHOOK_INBOX
                    .OUTCOME
                    .eq("BAD_SIGNATURE")
                    .and(WEBHOOK_INBOX.SIGNATURE_VALID.isFalse())))
        .isGreaterThanOrEqualTo(2);
  }

  @Test
  void signedUnknownStatus_isAcknowledgedAsStale_andRecorded_notRefusedAsMalformed()
      throws Exception {
    String paymentId = payrelay.createPayment(1050, "USD", "course-s");
    HttpResponse<String> r = postStatus(paymentId, "sbx_new_" + paymentId, "SOMETHING_NEW");

    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    assertThat(inboxOutcomes(paymentId)).containsExactly("STALE_STATUS");
    assertThat(status(paymentId)).isEqualTo("PENDING");
  }

  @Test
  void refundReportedForAPaidPayment_isAnException_needsAttention_thenAcknowledgeClosesIt()
      throws Exception {
    String paymentId = payrelay.createPayment(1050, "USD", "course-r");
    String txn = "sbx_paid_" + paymentId;
    assertThat(payrelay.postPaidCallback(paymentId, txn, "10.50", "USD").statusCode())
        .isEqualTo(200);
    await().atMost(TRAIL_TIMEOUT).until(() -> "FULFILLED".equals(paymentState(paymentId)));

    for (int i = 0; i < 2; i++) { // the channel's retry finds the same exception
      HttpResponse<String> r = postStatus(paymentId, txn, "REFUNDED");
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    }
    HttpResponse<String> disputed = postStatus(paymentId, txn, "DISPUTED");
    assertThat(disputed.statusCode()).as(disputed.body()).isEqualTo(200);

    assertThat(inboxOutcomes(paymentId)).contains("REFUNDED", "DISPUTED");
    assertThat(
            dsl.fetchCount(
                PAYMENT_EXCEPTION,
                PAYMENT_EXCEPTION
                    .PAYMENT_ID
                    .eq(paymentId)
                    .and(PAYMENT_EXCEPTION.STATUS.eq("OPEN"))))
        .isEqualTo(2);
    await().atMost(TRAIL_TIMEOUT).until(() -> "NEEDS_ATTENTION".equals(paymentState(paymentId)));
    assertThat(status(paymentId)).isEqualTo("PAID");

    HttpResponse<String> resolve =
        payrelay.postJson(
            "/v1/admin/payments/" + paymentId + "/resolve",
            "{\"operator\":\"alice\",\"reason\":\"refunded by support\",\"action\":\"ACKNOWLEDGE\"}");

    assertThat(resolve.statusCode()).as(resolve.body()).isEqualTo(202);
    await().atMost(TRAIL_TIMEOUT).until(() -> "FULFILLED".equals(paymentState(paymentId)));
    assertThat(
            dsl.fetchCount(
                PAYMENT_EXCEPTION,
                PAYMENT_EXCEPTION
                    .PAYMENT_ID
                    .eq(paymentId)
                    .and(PAYMENT_EXCEPTION.RESOLUTION.eq("ACKNOWLEDGE"))))
        .isEqualTo(2);
    assertThat(status(paymentId)).isEqualTo("PAID");
    assertThat(granted(paymentId)).isEqualTo(1);
    assertThat(confirmedEventIds(paymentId)).hasSize(1);
  }

  private HttpResponse<String> postStatus(String paymentId, String txn, String status)
      throws Exception {
    PayrelayHarness.SignedCallback cb =
        payrelay.signedCallback(
            new SandboxNotification(
                "ntf_" + status + "_" + txn,
                payrelay.config.sandbox().merchantId(),
                paymentId,
                txn,
                "10.50",
                "USD",
                status,
                Instant.now()));
    return payrelay.postWebhook(cb.raw(), cb.headers());
  }

  private List<String> inboxOutcomes(String paymentId) {
    return dsl.select(WEBHOOK_INBOX.OUTCOME)
        .from(WEBHOOK_INBOX)
        .where(WEBHOOK_INBOX.PAYMENT_ID.eq(paymentId))
        .orderBy(WEBHOOK_INBOX.ID)
        .fetch(WEBHOOK_INBOX.OUTCOME);
  }

  @Test
  void amountOneMinorUnitShort_staysPending_withOneException_andNoEvent() throws Exception {
    assertMismatch(1050, "USD", Map.of("amount", "10.49"), "AMOUNT_MISMATCH");
  }

  @Test
  void wrongCurrency_staysPending_withOneException_andNoEvent() throws Exception {
    assertMismatch(1050, "USD", Map.of("currency", "EUR"), "CURRENCY_MISMATCH");
  }

  @Test
  void amountMismatch_needsAttention_thenAdminAcceptAsPaid_paysAndGrants() throws Exception {
    String paymentId = payrelay.createPayment(1050, "USD", "c1");
    payrelay.payAtSandbox(paymentId, "{\"amount\":\"10.00\"}");
    await().atMost(TRAIL_TIMEOUT).until(() -> "NEEDS_ATTENTION".equals(paymentState(paymentId)));

    HttpResponse<String> resolve =
        payrelay.post(
            payrelay.api("/v1/admin/payments/" + paymentId + "/resolve"),
            "{\"operator\":\"alice\",\"reason\":\"channel confirmed 10.00 by phone\",\"action\":\"ACCEPT_AS_PAID\"}"
                .getBytes(),
            Map.of("Content-Type", "application/json"));

    assertThat(resolve.statusCode()).isEqualTo(202);
    await()
        .atMost(TRAIL_TIMEOUT)
        .until(() -> granted(paymentId) == 1 && "FULFILLED".equals(paymentState(paymentId)));
    assertThat(status(paymentId)).isEqualTo("PAID");
    assertThat(
            dsl.fetchCount(
                OPERATOR_ACTION,
                OPERATOR_ACTION.TARGET_ID.eq(paymentId).and(OPERATOR_ACTION.RESULT.eq("APPLIED"))))
        .isEqualTo(1);
    assertThat(
            dsl.fetchCount(
                PAYMENT_EXCEPTION,
                PAYMENT_EXCEPTION
                    .PAYMENT_ID
                    .eq(paymentId)
                    .and(PAYMENT_EXCEPTION.STATUS.eq("RESOLVED"))))
        .isEqualTo(1);
    assertThat(confirmedEventIds(paymentId)).hasSize(1);
    JsonNode trail = payrelay.trail(paymentId);
    assertThat(trail.path("exceptions").get(0).path("resolution").asText())
        .isEqualTo("ACCEPT_AS_PAID");
    assertThat(trail.path("operatorActions").get(0).path("operator").asText()).isEqualTo("alice");
  }

  @Test
  void adminClose_closesAtTheSandboxFirst_soTheBuyerCanNoLongerPay_andTheStoryEndsClosed()
      throws Exception {
    String paymentId = payrelay.createPayment(700, "USD", "c1");

    HttpResponse<String> close = resolve(paymentId, "customer cancelled the order", "CLOSE");

    assertThat(close.statusCode()).isEqualTo(202);
    await().atMost(TRAIL_TIMEOUT).until(() -> "CLOSED".equals(paymentState(paymentId)));
    assertThat(status(paymentId)).isEqualTo("CLOSED");
    HttpResponse<String> lateBuyer = payrelay.payAtSandbox(paymentId, "{}");
    assertThat(lateBuyer.statusCode()).as(lateBuyer.body()).isEqualTo(409);
    assertThat(granted(paymentId)).isZero();
  }

  @Test
  void adminClose_ofAnUnderpaidPayment_isRefusedForTheUndecidedMoney_andTheExceptionStays()
      throws Exception {
    String paymentId = payrelay.createPayment(1050, "USD", "c1");
    payrelay.payAtSandbox(paymentId, "{\"amount\":\"10.00\"}");
    await().atMost(TRAIL_TIMEOUT).until(() -> "NEEDS_ATTENTION".equals(paymentState(paymentId)));

    HttpResponse<String> close = resolve(paymentId, "customer cancelled the order", "CLOSE");

    assertThat(close.statusCode()).isEqualTo(202);
    String refusal =
        await()
            .atMost(TRAIL_TIMEOUT)
            .until(
                () ->
                    dsl.select(OPERATOR_ACTION.DETAILS)
                        .from(OPERATOR_ACTION)
                        .where(OPERATOR_ACTION.TARGET_ID.eq(paymentId))
                        .and(OPERATOR_ACTION.RESULT.eq("REJECTED"))
                        .fetchOne(OPERATOR_ACTION.DETAILS),
                java.util.Objects::nonNull);
    // Refused before the channel is asked: the money it reported waits for a decision.
    assertThat(refusal)
        .contains("the channel reported money paid to us")
        .contains("AMOUNT_MISMATCH")
        .contains("MARK_FOR_REFUND");
    assertThat(status(paymentId)).isEqualTo("PENDING");
    assertThat(paymentState(paymentId)).isEqualTo("NEEDS_ATTENTION");
    assertThat(
            dsl.fetchCount(
                PAYMENT_EXCEPTION,
                PAYMENT_EXCEPTION
                    .PAYMENT_ID
                    .eq(paymentId)
                    .and(PAYMENT_EXCEPTION.STATUS.eq("OPEN"))))
        .isEqualTo(1);
  }

  private static HttpResponse<String> resolve(String paymentId, String reason, String action)
      throws Exception {
    return payrelay.postJson(
        "/v1/admin/payments/" + paymentId + "/resolve",
        "{\"operator\":\"alice\",\"reason\":\"" + reason + "\",\"action\":\"" + action + "\"}");
  }

  @Test
  void twentyConcurrentCallbacksWithDifferentTransactions_confirmOnce_noneLost_noneA500()
      throws Exception {
    String paymentId = payrelay.createPayment(300, "USD", "c1");
    java.util.concurrent.atomic.AtomicInteger n = new java.util.concurrent.atomic.AtomicInteger();

    List<HttpResponse<String>> answers =
        concurrently(
            20,
            () -> {
              PayrelayHarness.SignedCallback cb =
                  payrelay.signedCallback(
                      paid(
                          paymentId,
                          "sbx_d" + n.incrementAndGet() + "_" + paymentId,
                          "3.00",
                          "USD"));
              return payrelay.postWebhook(cb.raw(), cb.headers());
            });

    assertThat(answers).allSatisfy(a -> assertThat(a.statusCode()).isEqualTo(200));
    assertThat(answers).filteredOn(a -> a.body().contains("CONFIRMED")).hasSize(1);
    assertThat(answers).filteredOn(a -> a.body().contains("DOUBLE_PAYMENT")).hasSize(19);
    assertThat(dsl.fetchCount(WEBHOOK_INBOX, WEBHOOK_INBOX.PAYMENT_ID.eq(paymentId))).isEqualTo(20);
    assertThat(confirmedEventIds(paymentId)).hasSize(1);
    // The buyer paid: granted once; the 19 extra charges are exceptions for review.
    await()
        .atMost(TRAIL_TIMEOUT)
        .until(() -> "NEEDS_ATTENTION".equals(paymentState(paymentId)) && granted(paymentId) == 1);
  }

  @Test
  void deadEvent_replayedThroughTheAdminApi_isPublishedAgainWithTheSameMessageId()
      throws Exception {
    String paymentId = payrelay.createPayment(700, "USD", "c1");
    payrelay.payAtSandbox(paymentId, "{}");
    await()
        .atMost(TRAIL_TIMEOUT)
        .until(() -> sentEvents(paymentId) == 2 && "FULFILLED".equals(paymentState(paymentId)));
    drainFor(paymentId);
    String eventId = confirmedEventIds(paymentId).get(0);
    // As if its publish had run out of retries: the workflow is finished, the row DEAD.
    dsl.update(OUTBOX_EVENT)
        .set(OUTBOX_EVENT.STATUS, "DEAD")
        .set(OUTBOX_EVENT.LAST_ERROR, "UNROUTABLE: test")
        .where(OUTBOX_EVENT.EVENT_ID.eq(eventId))
        .execute();

    HttpResponse<String> replay =
        payrelay.post(
            payrelay.api("/v1/admin/outbox/" + eventId + "/replay"),
            "{\"operator\":\"alice\",\"reason\":\"binding restored\"}".getBytes(),
            Map.of("Content-Type", "application/json"));

    assertThat(replay.statusCode()).isEqualTo(202);
    await().atMost(TRAIL_TIMEOUT).until(() -> sentEvents(paymentId) == 2);
    List<GetResponse> republished = drainFor(paymentId);
    assertThat(republished).extracting(m -> m.getProps().getMessageId()).containsExactly(eventId);
    assertThat(
            dsl.fetchCount(
                OPERATOR_ACTION,
                OPERATOR_ACTION
                    .TARGET_ID
                    .eq(eventId)
                    .and(OPERATOR_ACTION.ACTION.eq("REPLAY_EVENT"))
                    .and(OPERATOR_ACTION.RESULT.eq("APPLIED"))))
        .isEqualTo(1);
    assertThat(granted(paymentId)).isEqualTo(1);
  }

  private void assertMismatch(
      long amount, String currency, Map<String, String> override, String kind) throws Exception {
    String paymentId = payrelay.createPayment(amount, currency, "c1");
    HttpResponse<String> pay =
        payrelay.payAtSandbox(paymentId, new ObjectMapper().writeValueAsString(override));
    assertThat(pay.statusCode()).isEqualTo(200);

    await()
        .atMost(TRAIL_TIMEOUT)
        .until(
            () ->
                dsl.fetchCount(PAYMENT_EXCEPTION, PAYMENT_EXCEPTION.PAYMENT_ID.eq(paymentId)) == 1);
    assertThat(
            dsl.fetchCount(
                PAYMENT_EXCEPTION,
                PAYMENT_EXCEPTION.PAYMENT_ID.eq(paymentId).and(PAYMENT_EXCEPTION.KIND.eq(kind))))
        .isEqualTo(1);
    assertThat(status(paymentId)).isEqualTo("PENDING");
    assertThat(confirmedEventIds(paymentId)).isEmpty();
    assertThat(granted(paymentId)).isZero();
  }

  private static SandboxNotification paid(
      String paymentId, String txn, String amount, String currency) {
    return new SandboxNotification(
        "ntf_" + txn, "m_payrelay_dev", paymentId, txn, amount, currency, "PAID", Instant.now());
  }

  private static String paymentState(String paymentId) {
    return payrelay.paymentState(paymentId);
  }

  private static String status(String paymentId) {
    return dsl.select(PAYMENT_ORDER.STATUS)
        .from(PAYMENT_ORDER)
        .where(PAYMENT_ORDER.PAYMENT_ID.eq(paymentId))
        .fetchSingle()
        .value1();
  }

  private static int sentEvents(String paymentId) {
    return dsl.fetchCount(
        OUTBOX_EVENT, OUTBOX_EVENT.AGGREGATE_ID.eq(paymentId).and(OUTBOX_EVENT.STATUS.eq("SENT")));
  }

  private static List<String> confirmedEventIds(String paymentId) {
    return dsl.select(OUTBOX_EVENT.EVENT_ID)
        .from(OUTBOX_EVENT)
        .where(
            OUTBOX_EVENT
                .AGGREGATE_ID
                .eq(paymentId)
                .and(OUTBOX_EVENT.EVENT_TYPE.eq("PaymentConfirmed")))
        .fetch(OUTBOX_EVENT.EVENT_ID);
  }

  private static int granted(String paymentId) {
    return dsl.fetchCount(ENTITLEMENT, ENTITLEMENT.PURCHASE_ID.eq(paymentId));
  }

  /** Every message on the test queue for this payment (messages of other tests are dropped). */
  private static List<GetResponse> drainFor(String paymentId) throws Exception {
    List<GetResponse> mine = new ArrayList<>();
    try (Channel ch = payrelay.amqpChannel()) {
      for (GetResponse r = ch.basicGet(payrelay.queue, true);
          r != null;
          r = ch.basicGet(payrelay.queue, true)) {
        if (new String(r.getBody(), StandardCharsets.UTF_8).contains(paymentId)) {
          mine.add(r);
        }
      }
    }
    return mine;
  }

  private static <T> List<T> concurrently(int n, java.util.concurrent.Callable<T> task)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(n);
    try {
      List<Future<T>> futures = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        futures.add(pool.submit(task));
      }
      List<T> results = new ArrayList<>();
      for (Future<T> f : futures) {
        results.add(f.get());
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }
}

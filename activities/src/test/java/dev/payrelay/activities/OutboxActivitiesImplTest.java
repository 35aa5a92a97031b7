package dev.payrelay.activities;

import static dev.payrelay.ledger.db.generated.Tables.OPERATOR_ACTION;
import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.rabbitmq.client.GetResponse;
import dev.payrelay.amqp.QueueBinding;
import dev.payrelay.amqp.RabbitFixture;
import dev.payrelay.amqp.publish.ConfirmingPublisher;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.CallbackOutcome;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.VerifiedCallback;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.domain.event.OutboxStatus;
import dev.payrelay.ledger.outbox.DeadEvents;
import dev.payrelay.ledger.outbox.OutboxRow;
import dev.payrelay.ledger.outbox.OutboxStore;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.payment.PaymentLedger;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.ledger.testing.TestDatabase;
import dev.payrelay.workflows.activities.EventOperationRequest;
import dev.payrelay.workflows.activities.EventOperationResult;
import dev.payrelay.workflows.activities.MarkDeadRequest;
import dev.payrelay.workflows.activities.PublishRequest;
import io.temporal.failure.ApplicationErrorCategory;
import io.temporal.failure.ApplicationFailure;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The publish activity on a real database and broker: SENT only after a routed, confirmed publish.
 */
class OutboxActivitiesImplTest {

  private static TestDatabase db;
  private static RabbitFixture rabbit;
  private static DSLContext dsl;
  private static PaymentStore payments;
  private static PaymentLedger ledger;
  private static OutboxStore outbox;
  private static ConfirmingPublisher publisher;
  private static OutboxActivitiesImpl activities;
  private static String exchange;

  @BeforeAll
  static void setUp() throws Exception {
    db = TestDatabase.create(OutboxActivitiesImplTest.class);
    rabbit = new RabbitFixture();
    dsl = db.database().dsl();
    OutboxWriter writer = new OutboxWriter(new EventJson());
    payments = new PaymentStore(dsl, writer);
    ledger = new PaymentLedger(dsl, payments, writer);
    outbox = new OutboxStore(dsl);
    exchange = rabbit.exchangeName("payrelay.test.outbox-activities");
    rabbit.declare(exchange, List.of());
    publisher =
        new ConfirmingPublisher(
            rabbit.config(exchange, RabbitFixture.PORT, Duration.ofSeconds(5), 2));
    activities =
        new OutboxActivitiesImpl(outbox, new DeadEvents(dsl), TestIdentities.dev(), publisher);
  }

  @AfterAll
  static void tearDown() throws Exception {
    publisher.close();
    rabbit.close();
    db.close();
  }

  @Test
  void unroutablePublish_failsRetryably_andLeavesTheRowUnsentWithTheAttemptCounted() {
    String eventId = createdEventOfNewPayment();
    // No queue of this exchange is bound for this key, whatever other tests bound.
    dsl.update(OUTBOX_EVENT)
        .set(OUTBOX_EVENT.ROUTING_KEY, "payment.nobody-listens")
        .where(OUTBOX_EVENT.EVENT_ID.eq(eventId))
        .execute();

    assertThatThrownBy(() -> activities.publish(new PublishRequest(eventId)))
        .isInstanceOfSatisfying(
            ApplicationFailure.class,
            f -> {
              assertThat(f.getType()).isEqualTo("UNROUTABLE");
              // Shown as "type: message": the message does not say the type again.
              assertThat(f.getOriginalMessage()).doesNotStartWith("UNROUTABLE");
              assertThat(f.isNonRetryable()).isFalse();
              // Expected while the broker is down or unbound: logged by us in one line, by
              // Temporal's SDK at DEBUG only.
              assertThat(f.getCategory()).isEqualTo(ApplicationErrorCategory.BENIGN);
            });

    OutboxRow row = outbox.find(eventId).orElseThrow();
    assertThat(row.status()).isEqualTo(OutboxStatus.PENDING);
    assertThat(row.attempts()).isEqualTo(1);
    assertThat(row.lastError()).contains("UNROUTABLE");
    assertThat(row.sentAt()).isNull();
  }

  @Test
  void routedPublish_marksSent_withMessageIdEqualToEventId_andARepeatPublishesNothing()
      throws Exception {
    String queue = rabbit.queueName("payrelay.test.outbox-activities.created");
    rabbit.declare(exchange, List.of(new QueueBinding(queue, "payment.created")));
    String eventId = createdEventOfNewPayment();

    assertThat(activities.publish(new PublishRequest(eventId)).alreadySent()).isFalse();
    assertThat(activities.publish(new PublishRequest(eventId)).alreadySent()).isTrue();

    assertThat(outbox.find(eventId).orElseThrow().status()).isEqualTo(OutboxStatus.SENT);
    GetResponse message = rabbit.get(queue);
    assertThat(message).isNotNull();
    assertThat(message.getProps().getMessageId()).isEqualTo(eventId);
    assertThat(rabbit.get(queue)).as("published once").isNull();
  }

  @Test
  void unknownPayloadVersion_isANonRetryableBadPayload_andNothingIsPublished() {
    String eventId = createdEventOfNewPayment();
    dsl.update(OUTBOX_EVENT)
        .set(OUTBOX_EVENT.PAYLOAD_VERSION, 99)
        .where(OUTBOX_EVENT.EVENT_ID.eq(eventId))
        .execute();

    assertThatThrownBy(() -> activities.publish(new PublishRequest(eventId)))
        .isInstanceOfSatisfying(
            ApplicationFailure.class,
            f -> {
              assertThat(f.getType()).isEqualTo("BAD_PAYLOAD");
              assertThat(f.isNonRetryable()).isTrue();
            });
    assertThat(outbox.find(eventId).orElseThrow().status()).isEqualTo(OutboxStatus.PENDING);
  }

  @Test
  void deadEvent_isNotPublishedAgain_untilAnOperatorReplaysIt() {
    String eventId = createdEventOfNewPayment();
    activities.markDead(new MarkDeadRequest(eventId, "UNROUTABLE: retries exhausted"));

    assertThat(outbox.find(eventId).orElseThrow().status()).isEqualTo(OutboxStatus.DEAD);
    assertThatThrownBy(() -> activities.publish(new PublishRequest(eventId)))
        .isInstanceOfSatisfying(
            ApplicationFailure.class, f -> assertThat(f.getType()).isEqualTo("EVENT_DEAD"));
  }

  @Test
  void missingEvent_isANonRetryableEventNotFound() {
    assertThatThrownBy(
            () -> activities.publish(new PublishRequest("00000000-0000-0000-0000-000000000000")))
        .isInstanceOfSatisfying(
            ApplicationFailure.class,
            f -> {
              assertThat(f.getType()).isEqualTo("EVENT_NOT_FOUND");
              assertThat(f.isNonRetryable()).isTrue();
            });
  }

  @Test
  void deadEvent_replayedByAnOperator_isSentWithTheSameMessageId_andAudited() throws Exception {
    String queue = rabbit.queueName("payrelay.test.outbox-activities.replay");
    rabbit.declare(exchange, List.of(new QueueBinding(queue, "payment.replayed")));
    String eventId = createdEventOfNewPayment();
    String paymentId = outbox.find(eventId).orElseThrow().aggregateId();
    dsl.update(OUTBOX_EVENT)
        .set(OUTBOX_EVENT.ROUTING_KEY, "payment.replayed")
        .where(OUTBOX_EVENT.EVENT_ID.eq(eventId))
        .execute();
    activities.markDead(new MarkDeadRequest(eventId, "UNROUTABLE: retries exhausted"));

    EventOperationResult refused =
        activities.replayDead(
            new EventOperationRequest(
                "pay_other",
                eventId,
                "alice",
                "wrong payment",
                "REPLAY_EVENT",
                null,
                "payment-pay_other:run-1:1"));
    EventOperationResult replay =
        activities.replayDead(
            new EventOperationRequest(
                paymentId,
                eventId,
                "alice",
                "binding restored",
                "REPLAY_EVENT",
                null,
                "payment-" + paymentId + ":run-1:1"));
    activities.publish(new PublishRequest(eventId));

    assertThat(refused.applied()).isFalse();
    assertThat(replay.applied()).isTrue();
    assertThat(replay.eventType()).isEqualTo("PaymentCreated");
    assertThat(outbox.find(eventId).orElseThrow().status()).isEqualTo(OutboxStatus.SENT);
    assertThat(rabbit.get(queue).getProps().getMessageId()).isEqualTo(eventId);
    assertThat(
            dsl.fetchCount(
                OPERATOR_ACTION,
                OPERATOR_ACTION.TARGET_ID.eq(eventId).and(OPERATOR_ACTION.RESULT.eq("APPLIED"))))
        .isEqualTo(1);
    assertThat(
            dsl.fetchCount(
                OPERATOR_ACTION,
                OPERATOR_ACTION.TARGET_ID.eq(eventId).and(OPERATOR_ACTION.RESULT.eq("REJECTED"))))
        .isEqualTo(1);
  }

  @Test
  void deadEvent_discarded_isNeverPublished_andASecondDiscardIsRefused() {
    String eventId = createdEventOfNewPayment();
    String paymentId = outbox.find(eventId).orElseThrow().aggregateId();
    activities.markDead(new MarkDeadRequest(eventId, "BAD_PAYLOAD"));

    assertThat(
            activities
                .discardDead(
                    new EventOperationRequest(
                        paymentId,
                        eventId,
                        "bob",
                        "poison",
                        "DISCARD_EVENT",
                        null,
                        "payment-" + paymentId + ":run-1:1"))
                .applied())
        .isTrue();
    assertThat(
            activities
                .discardDead(
                    new EventOperationRequest(
                        paymentId,
                        eventId,
                        "bob",
                        "again",
                        "DISCARD_EVENT",
                        null,
                        "payment-" + paymentId + ":run-1:2"))
                .message())
        .contains("DISCARDED, not DEAD");
    assertThat(outbox.find(eventId).orElseThrow().status()).isEqualTo(OutboxStatus.DISCARDED);
    assertThatThrownBy(() -> activities.publish(new PublishRequest(eventId)))
        .isInstanceOf(ApplicationFailure.class);
  }

  @Test
  void aPaymentsEventsPublishedInReverse_carryPaymentSeqAndOutboxSeq_thatPutThemBackInOrder()
      throws Exception {
    // Its own exchange: a catch-all binding on the shared one would route other tests' messages.
    String ordered = rabbit.exchangeName("payrelay.test.outbox-activities.ordered");
    String queue = rabbit.queueName("payrelay.test.outbox-activities.order");
    rabbit.declare(ordered, List.of(new QueueBinding(queue, "payment.#")));
    PaymentRow p = Payments.paid(payments, ledger, Money.parse("3.00", "USD"), "c1");
    VerifiedCallback secondCharge =
        new VerifiedCallback(
            "n-second-" + p.paymentId(),
            p.merchantId(),
            p.paymentId(),
            "t-second-" + p.paymentId(),
            p.amount(),
            ChannelPaymentStatus.PAID);
    assertThat(ledger.apply(secondCharge, null, "CALLBACK").outcome())
        .isEqualTo(CallbackOutcome.DOUBLE_PAYMENT);
    List<OutboxRow> events = new ArrayList<>(outbox.forPayment(p.paymentId()));

    // As after a fault: the latest event reaches the broker first, the first one last.
    try (ConfirmingPublisher toOrdered =
        new ConfirmingPublisher(
            rabbit.config(ordered, RabbitFixture.PORT, Duration.ofSeconds(5), 1))) {
      OutboxActivitiesImpl publishing =
          new OutboxActivitiesImpl(outbox, new DeadEvents(dsl), TestIdentities.dev(), toOrdered);
      for (OutboxRow event : events.reversed()) {
        publishing.publish(new PublishRequest(event.eventId()));
      }
    }
    List<Map<String, Object>> received = new ArrayList<>();
    for (GetResponse m; (m = rabbit.get(queue)) != null; ) {
      received.add(m.getProps().getHeaders());
    }

    assertThat(received)
        .extracting(h -> ((Number) h.get(ConfirmingPublisher.PAYMENT_SEQ_HEADER)).intValue())
        .as("arrived newest first")
        .containsExactly(3, 2, 1);
    received.sort(
        Comparator.comparingInt(
            h -> ((Number) h.get(ConfirmingPublisher.PAYMENT_SEQ_HEADER)).intValue()));
    assertThat(received)
        .extracting(h -> String.valueOf(h.get("event_type")))
        .as("ordered by payment_seq: the payment's story")
        .containsExactly("PaymentCreated", "PaymentConfirmed", "PaymentExceptionRecorded");
    assertThat(received)
        .extracting(h -> ((Number) h.get(ConfirmingPublisher.OUTBOX_SEQ_HEADER)).longValue())
        .as("the global outbox order agrees")
        .containsExactlyElementsOf(events.stream().map(OutboxRow::seq).toList())
        .isSorted();
  }

  private static String createdEventOfNewPayment() {
    String paymentId =
        payments
            .create(Payments.newPayment(Money.parse("1.00", "USD"), "c1"))
            .payment()
            .paymentId();
    return outbox.forPayment(paymentId).get(0).eventId();
  }
}

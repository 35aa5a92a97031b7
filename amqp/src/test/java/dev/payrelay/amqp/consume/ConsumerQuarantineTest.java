package dev.payrelay.amqp.consume;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.GetResponse;
import dev.payrelay.amqp.RabbitFixture;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Listing and replaying a consumer's quarantine queue on the real broker, with the queues {@link
 * ConsumerTopology} declares for a consumer named for this run.
 */
class ConsumerQuarantineTest {

  private static RabbitFixture rabbit;
  private static ConsumerQuarantine quarantine;
  private static String exchange;
  private static final List<ConsumerQueues> declared = new ArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    rabbit = new RabbitFixture();
    exchange = rabbit.exchangeName("quarantine-test.events");
    quarantine =
        new ConsumerQuarantine(
            rabbit.config(exchange, RabbitFixture.PORT, Duration.ofSeconds(5), 1));
  }

  @AfterAll
  static void stop() throws Exception {
    try (Channel channel = rabbit.admin().createChannel()) {
      for (ConsumerQueues q : declared) {
        channel.queueDelete(q.work());
        channel.queueDelete(q.retry(1));
        channel.queueDelete(q.quarantine());
      }
    }
    rabbit.close();
  }

  /** A fresh consumer's queues, with {@code ids} quarantined (null: a message without an id). */
  private static ConsumerQueues consumerWith(String base, String... ids) throws Exception {
    ConsumerSettings settings =
        new ConsumerSettings(
            base + "-" + rabbit.suffix(),
            List.of("payment.#"),
            1,
            1,
            List.of(Duration.ofSeconds(1)),
            10);
    new ConsumerTopology(exchange, settings).declare(rabbit.admin());
    ConsumerQueues queues = settings.queues();
    declared.add(queues);
    try (Channel channel = rabbit.admin().createChannel()) {
      channel.confirmSelect();
      for (String id : ids) {
        Map<String, Object> headers = new HashMap<>();
        headers.put("payload_version", 1);
        headers.put(InboxConsumer.REASON_HEADER, "EXHAUSTED");
        headers.put(InboxConsumer.DETAIL_HEADER, "failed 3 attempt(s); last: deadlock");
        headers.put(InboxConsumer.CONSUMER_HEADER, settings.name());
        headers.put(InboxConsumer.QUARANTINED_AT_HEADER, "2026-11-30T21:00:00Z");
        headers.put(InboxConsumer.ATTEMPT_HEADER, 3);
        headers.put(InboxConsumer.ROUTING_KEY_HEADER, "payment.confirmed");
        AMQP.BasicProperties props =
            new AMQP.BasicProperties.Builder()
                .messageId(id)
                .type("PaymentConfirmed")
                .contentType("application/json")
                .deliveryMode(2)
                .headers(headers)
                .build();
        channel.basicPublish("", queues.quarantine(), true, props, body(id));
      }
      channel.waitForConfirmsOrDie(5_000);
    }
    return queues;
  }

  private static byte[] body(String id) {
    return ("{\"eventId\":\"" + id + "\"}").getBytes(StandardCharsets.UTF_8);
  }

  private static List<String> idsIn(String consumer) throws Exception {
    List<String> ids = new ArrayList<>();
    quarantine.list(consumer, 100).messages().forEach(m -> ids.add(m.eventId()));
    return ids;
  }

  @Test
  void list_showsTheQuarantineHeaders_andLeavesEveryMessageInPlace() throws Exception {
    ConsumerQueues queues = consumerWith("list", "e1", "e2", "e3");

    QuarantinePeek first = quarantine.list(queues.consumer(), 2);
    QuarantinePeek again = quarantine.list(queues.consumer(), 10);

    assertThat(first.depth()).isEqualTo(3);
    assertThat(first.messages()).hasSize(2);
    assertThat(first.messages().get(0))
        .isEqualTo(
            new QuarantinedMessage(
                first.messages().get(0).entryId(),
                "e1",
                "PaymentConfirmed",
                "payment.confirmed",
                "EXHAUSTED",
                "failed 3 attempt(s); last: deadlock",
                "2026-11-30T21:00:00Z",
                3,
                body("e1").length));
    assertThat(first.messages().get(0).entryId())
        .as("derived from id and body when the header is absent: the same at every look")
        .matches("[0-9a-f]{16}");
    assertThat(again.messages())
        .extracting(QuarantinedMessage::entryId)
        .contains(first.messages().get(0).entryId(), first.messages().get(1).entryId());
    assertThat(again.depth()).isEqualTo(3);
    assertThat(again.messages())
        .extracting(QuarantinedMessage::eventId)
        .containsExactlyInAnyOrder("e1", "e2", "e3");
    assertThat(rabbit.messageCount(queues.quarantine())).isEqualTo(3);
    assertThatThrownBy(() -> quarantine.list(queues.consumer(), 0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void replay_movesTheChosenMessages_withTheirIdAndBody_withoutQuarantineHeaders()
      throws Exception {
    ConsumerQueues queues = consumerWith("replay", "e1", "e2", "e3", "e4");
    List<QuarantineReplay> heard = new ArrayList<>();

    List<QuarantineReplay> outcomes =
        quarantine.replay(
            queues.consumer(), new LinkedHashSet<>(List.of("e2", "e4", "nope")), heard::add);

    assertThat(outcomes)
        .extracting(QuarantineReplay::eventId, QuarantineReplay::result)
        .containsExactly(
            tuple("e2", QuarantineReplay.Result.REPLAYED),
            tuple("e4", QuarantineReplay.Result.REPLAYED),
            tuple("nope", QuarantineReplay.Result.NOT_FOUND));
    assertThat(heard).isEqualTo(outcomes);
    assertThat(rabbit.messageCount(queues.work())).isEqualTo(2);
    for (String id : List.of("e2", "e4")) {
      GetResponse moved = rabbit.get(queues.work());
      assertThat(moved.getProps().getMessageId()).isEqualTo(id);
      assertThat(moved.getProps().getType()).isEqualTo("PaymentConfirmed");
      assertThat(moved.getProps().getDeliveryMode()).isEqualTo(2);
      assertThat(moved.getBody()).isEqualTo(body(id));
      Map<String, Object> headers = moved.getProps().getHeaders();
      assertThat(headers)
          .doesNotContainKeys(
              "x-payrelay-quarantine-reason",
              "x-payrelay-quarantine-detail",
              "x-payrelay-consumer",
              "x-payrelay-quarantined-at",
              "x-payrelay-attempt");
      assertThat(headers.get(InboxConsumer.ROUTING_KEY_HEADER).toString())
          .isEqualTo("payment.confirmed");
      assertThat(headers.get("payload_version")).isEqualTo(1);
    }
    assertThat(idsIn(queues.consumer())).containsExactlyInAnyOrder("e1", "e3");
  }

  @Test
  void replayFirst_movesMessagesWithAnId_andReportsOneWithoutAnIdSkipped_leavingItThere()
      throws Exception {
    ConsumerQueues queues = consumerWith("first", "f1", null, "f2", "f3");
    String noIdEntry = quarantine.list(queues.consumer(), 10).messages().get(1).entryId();

    List<QuarantineReplay> outcomes = quarantine.replayFirst(queues.consumer(), 2, r -> {});
    List<QuarantineReplay> rest = quarantine.replayFirst(queues.consumer(), 10, r -> {});

    assertThat(outcomes)
        .extracting(QuarantineReplay::eventId, QuarantineReplay::result)
        .containsExactly(
            tuple("f1", QuarantineReplay.Result.REPLAYED),
            tuple(null, QuarantineReplay.Result.SKIPPED),
            tuple("f2", QuarantineReplay.Result.REPLAYED));
    assertThat(outcomes.get(1).entryId()).isEqualTo(noIdEntry);
    assertThat(outcomes.get(1).why()).contains("no usable message_id");
    assertThat(rest)
        .extracting(QuarantineReplay::eventId, QuarantineReplay::result)
        .containsExactlyInAnyOrder(
            tuple(null, QuarantineReplay.Result.SKIPPED),
            tuple("f3", QuarantineReplay.Result.REPLAYED));
    assertThat(rabbit.messageCount(queues.work())).isEqualTo(3);
    assertThat(idsIn(queues.consumer())).containsExactly((String) null);
  }

  @Test
  void discard_byEntryId_takesOffAMessageWithoutAnId_afterTheListenerKeptIt() throws Exception {
    ConsumerQueues queues = consumerWith("discard", "g1", null, "g2");
    String entry = quarantine.list(queues.consumer(), 10).messages().get(1).entryId();
    List<String> kept = new ArrayList<>();

    Optional<QuarantinedMessage> gone =
        quarantine.discard(
            queues.consumer(),
            entry,
            (m, body) -> kept.add(m.entryId() + " " + new String(body, StandardCharsets.UTF_8)));

    assertThat(gone).hasValueSatisfying(m -> assertThat(m.eventId()).isNull());
    assertThat(kept).containsExactly(entry + " {\"eventId\":\"null\"}");
    assertThat(idsIn(queues.consumer())).containsExactlyInAnyOrder("g1", "g2");
    assertThat(quarantine.discard(queues.consumer(), entry, (m, body) -> {})).isEmpty();
  }

  @Test
  void discard_whoseListenerFails_leavesTheMessageInQuarantine() throws Exception {
    ConsumerQueues queues = consumerWith("discard-fail", "h1");
    String entry = quarantine.list(queues.consumer(), 10).messages().get(0).entryId();

    assertThatThrownBy(
            () ->
                quarantine.discard(
                    queues.consumer(),
                    entry,
                    (m, body) -> {
                      throw new IllegalStateException("database down");
                    }))
        .hasMessage("database down");

    assertThat(idsIn(queues.consumer())).containsExactly("h1");
  }

  @Test
  void replayEntries_movesByEntryId_andSkipsOneWithoutAnEventId() throws Exception {
    ConsumerQueues queues = consumerWith("entries", "k1", null);
    List<QuarantinedMessage> listed = quarantine.list(queues.consumer(), 10).messages();

    List<QuarantineReplay> outcomes =
        quarantine.replayEntries(
            queues.consumer(),
            new LinkedHashSet<>(
                List.of(listed.get(0).entryId(), listed.get(1).entryId(), "0000000000000000")),
            r -> {});

    assertThat(outcomes)
        .extracting(QuarantineReplay::entryId, QuarantineReplay::eventId, QuarantineReplay::result)
        .containsExactly(
            tuple(listed.get(0).entryId(), "k1", QuarantineReplay.Result.REPLAYED),
            tuple(listed.get(1).entryId(), null, QuarantineReplay.Result.SKIPPED),
            tuple("0000000000000000", null, QuarantineReplay.Result.NOT_FOUND));
    assertThat(rabbit.messageCount(queues.work())).isEqualTo(1);
    assertThat(idsIn(queues.consumer())).containsExactly((String) null);
  }

  @Test
  void aMessageTheBrokerDeadLettered_isListedWithItsFirstRoutingKey_andReplayedWithoutDeathHeaders()
      throws Exception {
    ConsumerQueues queues = consumerWith("limit");
    try (Channel channel = rabbit.admin().createChannel()) {
      channel.confirmSelect();
      channel.basicPublish(
          exchange,
          "payment.refunded",
          true,
          new AMQP.BasicProperties.Builder().messageId("d1").type("PaymentRefunded").build(),
          body("d1"));
      channel.waitForConfirmsOrDie(5_000);
      // A consumer that dies before its ack, eleven times: the work queue's x-delivery-limit (10)
      // makes the broker dead-letter it to the quarantine queue.
      for (int i = 0; i < 11; i++) {
        GetResponse r = channel.basicGet(queues.work(), false);
        if (r == null) {
          break;
        }
        channel.basicNack(r.getEnvelope().getDeliveryTag(), false, true);
      }
    }
    org.awaitility.Awaitility.await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> rabbit.messageCount(queues.quarantine()) == 1);

    QuarantinedMessage listed = quarantine.list(queues.consumer(), 1).messages().get(0);
    quarantine.replay(queues.consumer(), java.util.Set.of("d1"), r -> {});

    assertThat(listed.reason()).isEqualTo("DELIVERY_LIMIT");
    assertThat(listed.routingKey()).isEqualTo("payment.refunded");
    GetResponse moved = rabbit.get(queues.work());
    assertThat(moved.getProps().getMessageId()).isEqualTo("d1");
    assertThat(moved.getProps().getHeaders())
        .doesNotContainKeys("x-death", "x-first-death-reason", "x-last-death-reason")
        .containsKey(InboxConsumer.ROUTING_KEY_HEADER);
    assertThat(moved.getProps().getHeaders().get(InboxConsumer.ROUTING_KEY_HEADER).toString())
        .isEqualTo("payment.refunded");
  }

  @Test
  void anUnknownConsumer_isRefusedByName() {
    String name = "absent-" + rabbit.suffix();

    assertThatThrownBy(() -> quarantine.list(name, 10))
        .isInstanceOf(UnknownConsumerException.class)
        .hasMessageContaining("payrelay.consumer." + name + ".quarantine");
    assertThatThrownBy(() -> quarantine.replay(name, java.util.Set.of("e1"), r -> {}))
        .isInstanceOf(UnknownConsumerException.class);
  }
}

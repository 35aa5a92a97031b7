package dev.payrelay.amqp.consume;

import static dev.payrelay.ledger.db.generated.Tables.CONSUMER_INBOX;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.GetResponse;
import dev.payrelay.amqp.AmqpConfig;
import dev.payrelay.amqp.RabbitFixture;
import dev.payrelay.amqp.Rabbitmqctl;
import dev.payrelay.domain.crash.CrashPoints;
import dev.payrelay.ledger.inbox.ConsumerInbox;
import dev.payrelay.ledger.payment.Notifications;
import dev.payrelay.ledger.testing.TestDatabase;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.sql.SQLTransactionRollbackException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The consumer kit against the real RabbitMQ and MariaDB: duplicates, concurrent copies, retries
 * with backoff, poison and exhausted messages, a reused id, and a connection dropped while a
 * handler commits. Each test runs its own consumer name, so its queues and inbox rows are its own.
 */
class InboxConsumerTest {

  private static final Duration WAIT = Duration.ofSeconds(30);
  private static TestDatabase db;
  private static RabbitFixture rabbit;
  private static String exchange;

  private final List<InboxConsumer> running = new ArrayList<>();

  /** What the test handler does, per event id: its invocations and the failures it is told to. */
  private final Map<String, List<Instant>> calls = new ConcurrentHashMap<>();

  private final Map<String, AtomicInteger> transientFailures = new ConcurrentHashMap<>();
  private final Set<String> poison = ConcurrentHashMap.newKeySet();
  private final Set<String> broken = ConcurrentHashMap.newKeySet();
  private final Map<String, CountDownLatch> holds = new ConcurrentHashMap<>();
  private final Map<String, CountDownLatch> entered = new ConcurrentHashMap<>();

  @BeforeAll
  static void start() throws Exception {
    db = TestDatabase.create(InboxConsumerTest.class);
    rabbit = new RabbitFixture();
    exchange = rabbit.exchangeName("payrelay.events.kit");
  }

  @AfterAll
  static void stop() throws Exception {
    rabbit.close();
    db.close();
  }

  @AfterEach
  void closeConsumers() {
    running.forEach(InboxConsumer::close);
  }

  @Test
  void fiveDeliveriesOfOneEvent_twoConsumersConcurrently_oneEffect_allAckedAfterCommit()
      throws Exception {
    ConsumerSettings settings = settings("dup", List.of(Duration.ofMillis(200)));
    MeterRegistry first = new SimpleMeterRegistry();
    MeterRegistry second = new SimpleMeterRegistry();
    start(settings, first);
    start(settings, second);
    String eventId = UUID.randomUUID().toString();
    // The first handling holds its transaction open; the copies meanwhile wait on its inbox row.
    holds.put(eventId, new CountDownLatch(1));
    entered.put(eventId, new CountDownLatch(1));
    for (int i = 0; i < 5; i++) {
      publishToWork(settings, eventId, body("buyer-dup", "pay-dup"), Map.of());
    }
    assertThat(entered.get(eventId).await(30, TimeUnit.SECONDS)).isTrue();
    await()
        .atMost(WAIT)
        .until(() -> inFlight(first) + inFlight(second) >= 2); // copies are in both consumers
    holds.get(eventId).countDown();

    await()
        .atMost(WAIT)
        .until(
            () ->
                outcomes(first, "processed")
                        + outcomes(second, "processed")
                        + outcomes(first, "duplicate")
                        + outcomes(second, "duplicate")
                    == 5);
    assertThat(outcomes(first, "processed") + outcomes(second, "processed")).isEqualTo(1);
    assertThat(notifications("pay-dup")).isEqualTo(1);
    assertThat(calls.get(eventId)).hasSize(1);
    closeConsumers();
    running.clear();
    // Nothing was left unacked: closing the consumers would have put it back in the queue.
    assertThat(rabbit.messageCount(settings.queues().work())).isZero();
  }

  @Test
  void transientFailureTwice_thenSuccess_oneEffect_retriesSpacedByTheBackoff() throws Exception {
    Duration first = Duration.ofMillis(400);
    Duration second = Duration.ofMillis(800);
    ConsumerSettings settings = settings("transient", List.of(first, second, second));
    MeterRegistry metrics = new SimpleMeterRegistry();
    start(settings, metrics);
    String eventId = UUID.randomUUID().toString();
    transientFailures.put(eventId, new AtomicInteger(2));

    publishToWork(settings, eventId, body("buyer-t", "pay-transient"), Map.of());

    await().atMost(WAIT).until(() -> outcomes(metrics, "processed") == 1);
    List<Instant> attempts = calls.get(eventId);
    assertThat(attempts).hasSize(3);
    // Jitter is ±25%; a delay queue only ever holds a message longer, never shorter.
    assertThat(Duration.between(attempts.get(0), attempts.get(1)))
        .isGreaterThanOrEqualTo(first.multipliedBy(3).dividedBy(4));
    assertThat(Duration.between(attempts.get(1), attempts.get(2)))
        .isGreaterThanOrEqualTo(second.multipliedBy(3).dividedBy(4));
    assertThat(metrics.counter("payrelay.consumer.retries", "consumer", settings.name()).count())
        .isEqualTo(2.0);
    assertThat(notifications("pay-transient")).isEqualTo(1);
    assertThat(rabbit.messageCount(settings.queues().quarantine())).isZero();
  }

  @Test
  void poisonAndExhaustedMessagesAreQuarantined_theRestKeepFlowing_redeliveriesBounded()
      throws Exception {
    Duration delay = Duration.ofMillis(300);
    ConsumerSettings settings = settings("poison", List.of(delay, delay));
    MeterRegistry metrics = new SimpleMeterRegistry();
    start(settings, metrics);
    String poisoned = UUID.randomUUID().toString();
    String failing = UUID.randomUUID().toString();
    poison.add(poisoned);
    broken.add(failing);

    Instant began = Instant.now();
    publishToWork(settings, poisoned, body("buyer-p", "pay-poison"), Map.of());
    publishToWork(settings, failing, body("buyer-f", "pay-failing"), Map.of());
    for (int i = 0; i < 20; i++) {
      publishToWork(
          settings, UUID.randomUUID().toString(), body("buyer-ok-" + i, "pay-ok-" + i), Map.of());
    }

    await().atMost(WAIT).until(() -> outcomes(metrics, "processed") == 20);
    await().atMost(WAIT).until(() -> rabbit.messageCount(settings.queues().quarantine()) == 2);
    Duration took = Duration.between(began, Instant.now());
    // The poison message was handled once; the failing one exactly maxAttempts times, no more.
    assertThat(calls.get(poisoned)).hasSize(1);
    assertThat(calls.get(failing)).hasSize(settings.maxAttempts());
    double perSecond = calls.get(failing).size() / Math.max(0.001, took.toMillis() / 1000.0);
    System.out.printf(
        "poison test: failing message handled %d times in %d ms (%.1f/s), then quarantined%n",
        calls.get(failing).size(), took.toMillis(), perSecond);
    assertThat(perSecond).isLessThan(10.0);

    Map<String, GetResponse> quarantined = drain(settings.queues().quarantine());
    assertThat(quarantined).containsOnlyKeys(poisoned, failing);
    Map<String, Object> poisonHeaders = quarantined.get(poisoned).getProps().getHeaders();
    assertThat(poisonHeaders.get(InboxConsumer.REASON_HEADER).toString()).isEqualTo("POISON");
    assertThat(poisonHeaders.get(InboxConsumer.DETAIL_HEADER).toString())
        .contains("unknown payload version");
    assertThat(poisonHeaders.get(InboxConsumer.ROUTING_KEY_HEADER).toString())
        .isEqualTo("payment.confirmed");
    Map<String, Object> failingHeaders = quarantined.get(failing).getProps().getHeaders();
    assertThat(QuarantineReason.of(failingHeaders)).isEqualTo(QuarantineReason.EXHAUSTED);
    assertThat(failingHeaders.get(InboxConsumer.DETAIL_HEADER).toString())
        .contains("failed 3 attempt(s)");
    assertThat(new String(quarantined.get(failing).getBody(), StandardCharsets.UTF_8))
        .contains("pay-failing");
    // Nothing of theirs committed: a replay after the fix is processed, not a duplicate.
    assertThat(inboxRows(settings, poisoned) + inboxRows(settings, failing)).isZero();
    assertThat(
            metrics
                .counter(
                    "payrelay.consumer.quarantined",
                    "consumer",
                    settings.name(),
                    "reason",
                    "POISON")
                .count())
        .isEqualTo(1.0);
  }

  @Test
  void aReusedIdWithAnotherPayloadIsQuarantined_andAMessageWithoutIdToo() throws Exception {
    ConsumerSettings settings = settings("conflict", List.of(Duration.ofMillis(200)));
    MeterRegistry metrics = new SimpleMeterRegistry();
    start(settings, metrics);
    String eventId = UUID.randomUUID().toString();
    publishToWork(settings, eventId, body("buyer-c", "pay-conflict"), Map.of());
    await().atMost(WAIT).until(() -> outcomes(metrics, "processed") == 1);

    publishToWork(settings, eventId, body("buyer-c", "pay-conflict-other"), Map.of());
    publishToWork(settings, null, body("buyer-n", "pay-no-id"), Map.of());

    await().atMost(WAIT).until(() -> rabbit.messageCount(settings.queues().quarantine()) == 2);
    List<String> reasons = new ArrayList<>();
    for (GetResponse r : drainAll(settings.queues().quarantine())) {
      reasons.add(r.getProps().getHeaders().get(InboxConsumer.REASON_HEADER).toString());
    }
    assertThat(reasons).containsExactlyInAnyOrder("CONFLICT", "NO_MESSAGE_ID");
    assertThat(notifications("pay-conflict")).isEqualTo(1);
    assertThat(notifications("pay-conflict-other")).isZero();
  }

  @Test
  void connectionDroppedWhileTheHandlerCommits_noStaleAck_redeliveredAndDeduplicated()
      throws Exception {
    Assumptions.assumeTrue(Rabbitmqctl.isAvailable(), "needs rabbitmqctl");
    ConsumerSettings settings = settings("drop", List.of(Duration.ofMillis(200)));
    MeterRegistry metrics = new SimpleMeterRegistry();
    InboxConsumer consumer = start(settings, metrics);
    String eventId = UUID.randomUUID().toString();
    holds.put(eventId, new CountDownLatch(1));
    entered.put(eventId, new CountDownLatch(1));
    publishToWork(settings, eventId, body("buyer-d", "pay-drop"), Map.of());
    assertThat(entered.get(eventId).await(30, TimeUnit.SECONDS)).isTrue();

    // The broker closes the connection while the handler is inside its transaction.
    assertThat(Rabbitmqctl.closeConnectionNamed(connectionName(settings))).isEqualTo(1);
    holds.get(eventId).countDown(); // the commit goes through; the ack must not be sent

    await().atMost(WAIT).until(() -> outcomes(metrics, "duplicate") == 1);
    assertThat(outcomes(metrics, "processed")).isEqualTo(1);
    assertThat(notifications("pay-drop")).isEqualTo(1);
    assertThat(calls.get(eventId)).hasSize(1);
    await().atMost(WAIT).until(consumer::isConnected);
    // The next message flows on the new channels, and no channel was closed for a stale ack.
    publishToWork(settings, UUID.randomUUID().toString(), body("buyer-d2", "pay-drop-2"), Map.of());
    await().atMost(WAIT).until(() -> outcomes(metrics, "processed") == 2);
    assertThat(
            metrics
                .counter("payrelay.consumer.channel_errors", "consumer", settings.name())
                .count())
        .isZero();
    assertThat(rabbit.messageCount(settings.queues().work())).isZero();
  }

  @Test
  void aDelayedRetryExpiringWhileItsWorkQueueIsDeleted_isParked_notDropped() throws Exception {
    ConsumerSettings settings = settings("parked", List.of(Duration.ofMillis(100)));
    new ConsumerTopology(exchange, settings).declare(rabbit.admin());
    try (Channel channel = rabbit.admin().createChannel()) {
      channel.queueDelete(settings.queues().work());
    }
    String eventId = UUID.randomUUID().toString();
    try (Channel channel = rabbit.admin().createChannel()) {
      channel.confirmSelect();
      channel.basicPublish(
          "",
          settings.queues().retry(1),
          true,
          new AMQP.BasicProperties.Builder()
              .messageId(eventId)
              .deliveryMode(2)
              .expiration("50")
              .build(),
          body("buyer-x", "pay-parked"));
      channel.waitForConfirmsOrDie(5_000);
    }

    Map<String, GetResponse> parked = new ConcurrentHashMap<>();
    await()
        .atMost(WAIT)
        .until(
            () -> {
              parked.putAll(drain(ConsumerQueues.UNROUTABLE_DEAD_LETTERS));
              return parked.containsKey(eventId);
            });
    assertThat(new String(parked.get(eventId).getBody(), StandardCharsets.UTF_8))
        .isEqualTo("buyer-x|pay-parked");
  }

  @Test
  void aWorkQueueDeletedAtRuntime_isDeclaredAgain_andConsumedAgain() throws Exception {
    ConsumerSettings settings = settings("deleted", List.of(Duration.ofMillis(200)));
    MeterRegistry metrics = new SimpleMeterRegistry();
    InboxConsumer consumer = start(settings, metrics);
    try (Channel channel = rabbit.admin().createChannel()) {
      channel.queueDelete(settings.queues().work());
    }
    // The broker cancels the consumers: no longer connected, so the supervisor starts over.
    await().atMost(WAIT).until(() -> !consumer.isConnected());
    await().atMost(WAIT).until(consumer::isConnected);

    publishToWork(settings, UUID.randomUUID().toString(), body("buyer-z", "pay-again"), Map.of());
    await().atMost(WAIT).until(() -> notifications("pay-again") == 1);
  }

  @Test
  void aForeignAttemptHeaderBelowOne_isRetriedFromTheFirstDelay_notAKitFault() throws Exception {
    ConsumerSettings settings = settings("attempt", List.of(Duration.ofMillis(100)));
    MeterRegistry metrics = new SimpleMeterRegistry();
    start(settings, metrics);
    String eventId = UUID.randomUUID().toString();
    transientFailures.put(eventId, new AtomicInteger(1));

    publishToWork(
        settings, eventId, body("buyer-a", "pay-attempt"), Map.of(InboxConsumer.ATTEMPT_HEADER, 0));

    await().atMost(WAIT).until(() -> notifications("pay-attempt") == 1);
    assertThat(outcomes(metrics, "retried")).isEqualTo(1);
    assertThat(outcomes(metrics, "requeued")).isZero();
  }

  @Test
  void contentTheDatabaseRefuses_isQuarantinedAtOnce_notRetried() throws Exception {
    ConsumerSettings settings =
        settings("data", List.of(Duration.ofMillis(100), Duration.ofMillis(100)));
    MeterRegistry metrics = new SimpleMeterRegistry();
    start(settings, metrics);
    String eventId = UUID.randomUUID().toString();

    // user_id is VARCHAR(128): "data too long" (SQLSTATE 22001) fails however often it is tried.
    publishToWork(settings, eventId, body("u".repeat(200), "pay-too-long"), Map.of());

    await().atMost(WAIT).until(() -> rabbit.messageCount(settings.queues().quarantine()) == 1);
    assertThat(calls.get(eventId)).hasSize(1);
    GetResponse parked = rabbit.get(settings.queues().quarantine());
    assertThat(parked.getProps().getHeaders().get(InboxConsumer.REASON_HEADER).toString())
        .isEqualTo("POISON");
    assertThat(parked.getProps().getHeaders().get(InboxConsumer.DETAIL_HEADER).toString())
        .contains("the database refused the content");
  }

  private ConsumerSettings settings(String test, List<Duration> delays) {
    String name = "kit-" + test + "-" + rabbit.suffix();
    ConsumerSettings settings =
        new ConsumerSettings(name, List.of("payment.confirmed"), 2, 2, delays, 5);
    ConsumerQueues queues = settings.queues();
    rabbit.ownQueue(queues.work());
    rabbit.ownQueue(queues.quarantine());
    for (int level = 1; level <= delays.size(); level++) {
      rabbit.ownQueue(queues.retry(level));
    }
    return settings;
  }

  private InboxConsumer start(ConsumerSettings settings, MeterRegistry metrics) {
    AmqpConfig amqp = rabbit.config(exchange, RabbitFixture.PORT, Duration.ofSeconds(5), 1);
    InboxConsumer consumer =
        new InboxConsumer(
            amqp,
            settings,
            new ConsumerInbox(db.database().dsl()),
            this::handle,
            CrashPoints.none(),
            metrics,
            Clock.systemUTC());
    running.add(consumer);
    consumer.start();
    await().atMost(WAIT).until(consumer::isConnected);
    return consumer;
  }

  private String connectionName(ConsumerSettings settings) {
    return rabbit.name("payrelay-test-publisher") + "-" + settings.name();
  }

  /** The test handler: records a notification named by the body, or fails as told. */
  private void handle(ConsumedMessage message, DSLContext tx) {
    String id = message.eventId();
    calls.computeIfAbsent(id, k -> new CopyOnWriteArrayList<>()).add(Instant.now());
    if (poison.contains(id)) {
      throw new PoisonMessageException("unknown payload version 9");
    }
    if (broken.contains(id)) {
      throw new IllegalStateException("downstream says no");
    }
    AtomicInteger failures = transientFailures.get(id);
    if (failures != null && failures.getAndDecrement() > 0) {
      throw new DataAccessException(
          "deadlock", new SQLTransactionRollbackException("Deadlock found", "40001", 1213));
    }
    String[] parts = new String(message.body(), StandardCharsets.UTF_8).split("\\|");
    Notifications.record(tx, parts[0], parts[1], "test", id);
    CountDownLatch in = entered.get(id);
    if (in != null) {
      in.countDown();
      try {
        holds.get(id).await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static byte[] body(String user, String payment) {
    return (user + "|" + payment).getBytes(StandardCharsets.UTF_8);
  }

  private void publishToWork(
      ConsumerSettings settings, String eventId, byte[] body, Map<String, Object> headers)
      throws Exception {
    try (Channel channel = rabbit.admin().createChannel()) {
      channel.confirmSelect();
      channel.basicPublish(
          exchange,
          "payment.confirmed",
          true,
          new AMQP.BasicProperties.Builder()
              .messageId(eventId)
              .type("PaymentConfirmed")
              .deliveryMode(2)
              .headers(headers)
              .build(),
          body);
      channel.waitForConfirmsOrDie(5_000);
    }
  }

  private Map<String, GetResponse> drain(String queue) throws Exception {
    Map<String, GetResponse> byId = new ConcurrentHashMap<>();
    for (GetResponse r : drainAll(queue)) {
      byId.put(r.getProps().getMessageId(), r);
    }
    return byId;
  }

  private List<GetResponse> drainAll(String queue) throws Exception {
    List<GetResponse> all = new ArrayList<>();
    for (GetResponse r = rabbit.get(queue); r != null; r = rabbit.get(queue)) {
      all.add(r);
    }
    return all;
  }

  private static long outcomes(MeterRegistry metrics, String outcome) {
    return metrics.find("payrelay.consumer.processing").tag("outcome", outcome).timers().stream()
        .mapToLong(t -> t.count())
        .sum();
  }

  private static double inFlight(MeterRegistry metrics) {
    return metrics.find("payrelay.consumer.oldest_unacked_seconds").gauge() == null
        ? 0
        : metrics.get("payrelay.consumer.oldest_unacked_seconds").gauge().value() > 0 ? 1 : 0;
  }

  private static int notifications(String paymentId) {
    return Notifications.count(db.database().dsl(), paymentId, "test");
  }

  private static int inboxRows(ConsumerSettings settings, String eventId) {
    return db.database()
        .dsl()
        .fetchCount(
            CONSUMER_INBOX,
            CONSUMER_INBOX
                .CONSUMER_NAME
                .eq(settings.name())
                .and(CONSUMER_INBOX.EVENT_ID.eq(eventId)));
  }
}

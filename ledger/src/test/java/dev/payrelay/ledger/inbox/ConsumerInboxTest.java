package dev.payrelay.ledger.inbox;

import static dev.payrelay.ledger.db.generated.Tables.CONSUMER_INBOX;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.payrelay.ledger.payment.Notifications;
import dev.payrelay.ledger.testing.TestDatabase;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.UUID;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The consumer inbox on real MariaDB/MySQL: once per key, hash-compared repeats, the purge. */
class ConsumerInboxTest {

  private static TestDatabase db;
  private static DSLContext dsl;
  private static ConsumerInbox inbox;

  @BeforeAll
  static void setUp() {
    db = TestDatabase.create(ConsumerInboxTest.class);
    dsl = db.database().dsl();
    inbox = new ConsumerInbox(dsl);
  }

  @AfterAll
  static void tearDown() {
    db.close();
  }

  @Test
  void processesOnce_aRepeatWithTheSameBytesIsADuplicate_otherBytesAConflict() {
    String event = UUID.randomUUID().toString();
    String hash = ConsumerInbox.sha256("{\"a\":1}");

    InboxOutcome<Boolean> first =
        inbox.process("c1", event, hash, tx -> Notifications.record(tx, "u", event, "t", event));
    InboxOutcome<Boolean> again =
        inbox.process("c1", event, hash, tx -> Notifications.record(tx, "u", event, "t", event));
    InboxOutcome<Boolean> other =
        inbox.process(
            "c1",
            event,
            ConsumerInbox.sha256("{\"a\":2}"),
            tx -> Notifications.record(tx, "u", event, "t", event));
    InboxOutcome<Boolean> otherConsumer =
        inbox.process("c2", event, hash, tx -> Notifications.record(tx, "u", event, "t", event));

    assertThat(first.kind()).isEqualTo(InboxOutcome.Kind.PROCESSED);
    assertThat(first.value()).isTrue();
    assertThat(again.kind()).isEqualTo(InboxOutcome.Kind.DUPLICATE);
    assertThat(again.value()).isNull();
    assertThat(other.kind()).isEqualTo(InboxOutcome.Kind.CONFLICT);
    assertThat(other.storedSha256()).isEqualTo(hash);
    // Another consumer has its own inbox row; the business key keeps the effect single.
    assertThat(otherConsumer.kind()).isEqualTo(InboxOutcome.Kind.PROCESSED);
    assertThat(otherConsumer.value()).isFalse();
    assertThat(Notifications.count(dsl, event, "t")).isEqualTo(1);
  }

  @Test
  void aFailingChangeLeavesNoInboxRow_soTheRetryProcesses() {
    String event = UUID.randomUUID().toString();
    String hash = ConsumerInbox.sha256("x");

    assertThatThrownBy(
            () ->
                inbox.process(
                    "c1",
                    event,
                    hash,
                    tx -> {
                      Notifications.record(tx, "u", event, "t", event);
                      throw new IllegalStateException("handler failed after its insert");
                    }))
        .isInstanceOf(IllegalStateException.class);

    assertThat(inbox.storedHash("c1", event)).isNull();
    assertThat(Notifications.count(dsl, event, "t")).isZero();
    assertThat(
            inbox
                .process("c1", event, hash, tx -> Notifications.record(tx, "u", event, "t", event))
                .kind())
        .isEqualTo(InboxOutcome.Kind.PROCESSED);
  }

  @Test
  void rejectsMalformedKeys() {
    assertThatThrownBy(() -> inbox.process("", "e", ConsumerInbox.sha256("x"), tx -> 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> inbox.process("c", "x".repeat(65), ConsumerInbox.sha256("x"), tx -> 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> inbox.process("c", "e", "ABC", tx -> 1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void purgeRemovesOnlyThatConsumersOldRows_inBatches() {
    String consumer = "purge-" + UUID.randomUUID().toString().substring(0, 8);
    for (int i = 0; i < 5; i++) {
      insert(consumer, "old-" + i, 40);
    }
    insert(consumer, "recent", 1);
    insert("other-" + consumer, "old-x", 40);

    long purged = inbox.purgeProcessed(consumer, Duration.ofDays(30), 2);

    assertThat(purged).as("5 old rows in batches of 2 (2+2+1)").isEqualTo(5);
    assertThat(inbox.storedHash(consumer, "recent")).isNotNull();
    assertThat(inbox.storedHash("other-" + consumer, "old-x")).isNotNull();
    assertThatThrownBy(() -> inbox.purgeProcessed(consumer, Duration.ZERO, 2))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static void insert(String consumer, String event, int daysAgo) {
    dsl.insertInto(CONSUMER_INBOX)
        .set(CONSUMER_INBOX.CONSUMER_NAME, consumer)
        .set(CONSUMER_INBOX.EVENT_ID, event)
        .set(CONSUMER_INBOX.PAYLOAD_SHA256, ConsumerInbox.sha256(event))
        .set(CONSUMER_INBOX.PROCESSED_AT, LocalDateTime.now(ZoneOffset.UTC).minusDays(daysAgo))
        .execute();
  }
}

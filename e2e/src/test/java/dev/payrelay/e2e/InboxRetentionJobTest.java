package dev.payrelay.e2e;

import static dev.payrelay.ledger.db.generated.Tables.JOB_LEASE;
import static dev.payrelay.ledger.db.generated.Tables.WEBHOOK_INBOX;
import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.app.config.InboxRetentionSettings;
import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.jobs.InboxRetentionJob;
import dev.payrelay.ledger.db.JobLeases;
import dev.payrelay.ledger.inbox.InboxCompletion;
import dev.payrelay.ledger.inbox.ReceivedCallback;
import dev.payrelay.ledger.inbox.WebhookInboxRetention;
import dev.payrelay.ledger.inbox.WebhookInboxStore;
import dev.payrelay.ledger.testing.TestDatabase;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.Map;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The inbox purge job on real MariaDB/MySQL: it runs only while it holds its lease, deletes in
 * batches until the rows past their retention are gone, and counts them.
 */
class InboxRetentionJobTest {

  private static final InboxRetentionSettings SETTINGS =
      PayrelayConfig.fromEnv(Map.of("PAYRELAY_INBOX_PURGE_BATCH", "2")).inbox();
  private static TestDatabase db;
  private static DSLContext dsl;
  private static WebhookInboxStore inbox;

  @BeforeAll
  static void setUp() {
    db = TestDatabase.create(InboxRetentionJobTest.class);
    dsl = db.database().dsl();
    inbox = new WebhookInboxStore(dsl);
  }

  @AfterAll
  static void tearDown() {
    db.close();
  }

  @BeforeEach
  void empty() {
    dsl.deleteFrom(WEBHOOK_INBOX).execute();
    dsl.deleteFrom(JOB_LEASE).execute();
  }

  private static InboxRetentionJob job(String owner, SimpleMeterRegistry metrics) {
    return new InboxRetentionJob(
        new JobLeases(dsl), new WebhookInboxRetention(dsl), SETTINGS, owner, metrics);
  }

  @Test
  void aPass_takesTheLease_andDeletesEveryRowPastItsRetention_inBatches() {
    for (int i = 0; i < 5; i++) {
      rejected(8);
    }
    long young = rejected(1);
    long decided = decided(30);
    SimpleMeterRegistry metrics = new SimpleMeterRegistry();

    long deleted = job("worker-a", metrics).runOnce();

    assertThat(deleted).as("5 rows in batches of 2").isEqualTo(5);
    assertThat(dsl.select(WEBHOOK_INBOX.ID).from(WEBHOOK_INBOX).fetch(WEBHOOK_INBOX.ID))
        .containsExactlyInAnyOrder(young, decided);
    assertThat(
            dsl.select(JOB_LEASE.LEASE_OWNER, JOB_LEASE.LEASE_UNTIL)
                .from(JOB_LEASE)
                .where(JOB_LEASE.JOB_NAME.eq(InboxRetentionJob.JOB))
                .fetchOne())
        .satisfies(
            lease -> {
              assertThat(lease.value1()).isEqualTo("worker-a");
              assertThat(lease.value2()).isAfter(dbNow().plusMinutes(25));
            });
    assertThat(
            metrics.get("payrelay.webhook.inbox.purged").tag("kind", "rejected").counter().count())
        .isEqualTo(5.0);
  }

  @Test
  void whileAnotherWorkerHoldsTheLease_aPassDeletesNothing() {
    long old = rejected(8);
    new JobLeases(dsl).tryAcquire(InboxRetentionJob.JOB, "worker-b", Duration.ofMinutes(30));

    assertThat(job("worker-a", new SimpleMeterRegistry()).runOnce()).isZero();
    assertThat(dsl.fetchExists(WEBHOOK_INBOX, WEBHOOK_INBOX.ID.eq(old))).isTrue();

    InboxRetentionJob holder = job("worker-b", new SimpleMeterRegistry());
    assertThat(holder.runOnce()).isEqualTo(1);
    holder.close();
    rejected(9);
    assertThat(job("worker-a", new SimpleMeterRegistry()).runOnce())
        .as("released on close: the other worker takes it at once")
        .isEqualTo(1);
  }

  @Test
  void settings_haveTheStatedDefaults_andRefuseValuesOutOfBounds() {
    InboxRetentionSettings defaults = PayrelayConfig.fromEnv(Map.of()).inbox();

    assertThat(defaults.rejectedBodyBytes()).isEqualTo(4096);
    assertThat(defaults.rejectedRetention()).isEqualTo(Duration.ofDays(7));
    assertThat(defaults.decidedRetention()).isEqualTo(Duration.ofDays(400));
    assertThat(defaults.purgeBatch()).isEqualTo(500);
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> PayrelayConfig.fromEnv(Map.of("PAYRELAY_INBOX_REJECTED_BODY_SIZE", "65537B")))
        .hasMessage("PAYRELAY_INBOX_REJECTED_BODY_SIZE must be from 0B to 65536B, got: 65537B");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> PayrelayConfig.fromEnv(Map.of("PAYRELAY_INBOX_RETENTION", "0s")))
        .hasMessageStartingWith("PAYRELAY_INBOX_RETENTION must be from 1d to 36500d");
  }

  private static long rejected(int daysAgo) {
    long id = inbox.record(new ReceivedCallback("sandbox", Map.of(), new byte[10], null));
    inbox.complete(id, new InboxCompletion(false, "BAD_SIGNATURE", "bad", 401, null, null));
    return backdated(id, daysAgo);
  }

  private static long decided(int daysAgo) {
    long id = inbox.record(new ReceivedCallback("sandbox", Map.of(), new byte[10], null));
    inbox.complete(id, new InboxCompletion(true, "DUPLICATE", "again", 409, null, null));
    return backdated(id, daysAgo);
  }

  private static long backdated(long id, int days) {
    dsl.update(WEBHOOK_INBOX)
        .set(
            WEBHOOK_INBOX.RECEIVED_AT,
            DSL.field("NOW(6) - INTERVAL " + days + " DAY", LocalDateTime.class))
        .where(WEBHOOK_INBOX.ID.eq(id))
        .execute();
    return id;
  }

  private static LocalDateTime dbNow() {
    return dsl.select(DSL.field("NOW(6)", LocalDateTime.class)).fetchOne().value1();
  }
}

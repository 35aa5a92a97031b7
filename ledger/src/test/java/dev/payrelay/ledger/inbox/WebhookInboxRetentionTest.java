package dev.payrelay.ledger.inbox;

import static dev.payrelay.ledger.db.generated.Tables.WEBHOOK_INBOX;
import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.db.generated.tables.records.WebhookInboxRecord;
import dev.payrelay.ledger.testing.TestDatabase;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The inbox's retention on real MariaDB/MySQL: a refusal without a verified signature keeps a
 * prefix and the hash of its body; a decided row keeps its whole body; the purge removes only rows
 * past their retention and never a row still RECEIVED.
 */
class WebhookInboxRetentionTest {

  private static final Map<String, String> HEADERS = Map.of("Content-Type", "application/json");
  private static TestDatabase db;
  private static DSLContext dsl;
  private static WebhookInboxStore inbox;
  private static WebhookInboxRetention retention;

  @BeforeAll
  static void setUp() {
    db = TestDatabase.create(WebhookInboxRetentionTest.class);
    dsl = db.database().dsl();
    inbox = new WebhookInboxStore(dsl);
    retention = new WebhookInboxRetention(dsl);
  }

  @AfterAll
  static void tearDown() {
    db.close();
  }

  @BeforeEach
  void empty() {
    dsl.deleteFrom(WEBHOOK_INBOX).execute();
  }

  @Test
  void unsignedRefusal_keepsTheFirstBytes_theHashAndTheLengthOfTheWholeBody() {
    byte[] body = body(65_536);
    long badSignature = inbox.record(new ReceivedCallback("sandbox", HEADERS, body, "10.0.0.9"));
    long tooLarge = inbox.record(new ReceivedCallback("sandbox", HEADERS, body, null));

    inbox.complete(
        badSignature, new InboxCompletion(false, "BAD_SIGNATURE", "bad sig", 401, null, null));
    inbox
        .withRejectedBodyBytes(100)
        .complete(tooLarge, new InboxCompletion(null, "PAYLOAD_TOO_LARGE", "cut", 413, null, null));

    WebhookInboxRecord rejected = row(badSignature);
    assertThat(rejected.getRejected()).isTrue();
    assertThat(rejected.getRawBody()).isEqualTo(Arrays.copyOf(body, 4096));
    assertThat(rejected.getBodyBytes()).isEqualTo(65_536);
    assertThat(rejected.getBodySha256()).isEqualTo(WebhookInboxStore.sha256Hex(body)).hasSize(64);
    assertThat(rejected.getHeaders()).isEqualTo("Content-Type: application/json");
    assertThat(rejected.getOutcome()).isEqualTo("BAD_SIGNATURE");
    assertThat(row(tooLarge).getRawBody()).isEqualTo(Arrays.copyOf(body, 100));
  }

  @Test
  void decidedAndNotDecidedRows_keepTheWholeBody() {
    byte[] body = body(20_000);
    long confirmed = inbox.record(new ReceivedCallback("sandbox", HEADERS, body, null));
    long duplicate = inbox.record(new ReceivedCallback("sandbox", HEADERS, body, null));
    long notDecided = inbox.record(new ReceivedCallback("sandbox", HEADERS, body, null));

    WebhookInboxStore.complete(
        dsl, confirmed, new InboxCompletion(true, "CONFIRMED", "paid", 200, "pay_1", "n1"));
    inbox.complete(duplicate, new InboxCompletion(true, "DUPLICATE", "again", 409, "pay_1", "n1"));
    inbox.complete(notDecided, new InboxCompletion(null, "NOT_DECIDED", "lock", 503, null, null));

    for (long id : new long[] {confirmed, duplicate, notDecided}) {
      assertThat(row(id).getRawBody()).as("row %d", id).isEqualTo(body);
      assertThat(row(id).getRejected()).as("row %d", id).isFalse();
      assertThat(row(id).getBodySha256()).isEqualTo(WebhookInboxStore.sha256Hex(body));
    }
  }

  @Test
  void purge_deletesOnlyRowsPastTheirRetention_andNeverARowStillReceived() {
    long oldRejected = backdated(rejected(), 8);
    long youngRejected = backdated(rejected(), 6);
    long oldDecided = backdated(decided("CONFIRMED", true, 200), 401);
    long youngDecided = backdated(decided("CONFIRMED", true, 200), 8);
    long oldNotDecided = backdated(decided("NOT_DECIDED", null, 503), 401);
    long oldReceived =
        backdated(inbox.record(new ReceivedCallback("sandbox", HEADERS, body(10), null)), 900);

    int rejectedGone = retention.purgeRejected(Duration.ofDays(7), 500);
    int decidedGone = retention.purgeDecided(Duration.ofDays(400), 500);

    assertThat(rejectedGone).isEqualTo(1);
    assertThat(decidedGone).isEqualTo(2);
    assertThat(dsl.select(WEBHOOK_INBOX.ID).from(WEBHOOK_INBOX).fetch(WEBHOOK_INBOX.ID))
        .containsExactlyInAnyOrder(youngRejected, youngDecided, oldReceived)
        .doesNotContain(oldRejected, oldDecided, oldNotDecided);
  }

  @Test
  void purge_deletesAtMostOneBatchPerCall_oldestFirst() {
    long first = backdated(rejected(), 30);
    long second = backdated(rejected(), 20);
    long third = backdated(rejected(), 10);

    assertThat(retention.purgeRejected(Duration.ofDays(7), 2)).isEqualTo(2);
    assertThat(dsl.select(WEBHOOK_INBOX.ID).from(WEBHOOK_INBOX).fetch(WEBHOOK_INBOX.ID))
        .containsExactly(third)
        .doesNotContain(first, second);
    assertThat(retention.purgeRejected(Duration.ofDays(7), 2)).isEqualTo(1);
  }

  private static long rejected() {
    long id = inbox.record(new ReceivedCallback("sandbox", HEADERS, body(10), null));
    inbox.complete(id, new InboxCompletion(false, "BAD_SIGNATURE", "bad", 401, null, null));
    return id;
  }

  private static long decided(String outcome, Boolean signatureValid, int status) {
    long id = inbox.record(new ReceivedCallback("sandbox", HEADERS, body(10), null));
    inbox.complete(id, new InboxCompletion(signatureValid, outcome, "x", status, null, null));
    return id;
  }

  private static byte[] body(int bytes) {
    byte[] body = new byte[bytes];
    for (int i = 0; i < bytes; i++) {
      body[i] = (byte) ('a' + i % 26);
    }
    return body;
  }

  private static WebhookInboxRecord row(long id) {
    return dsl.selectFrom(WEBHOOK_INBOX).where(WEBHOOK_INBOX.ID.eq(id)).fetchOne();
  }

  /** Moves row {@code id}'s arrival {@code days} into the past; returns the id. */
  private static long backdated(long id, int days) {
    dsl.update(WEBHOOK_INBOX)
        .set(WEBHOOK_INBOX.RECEIVED_AT, SqlTime.nowPlus(Duration.ofDays(-days)))
        .where(WEBHOOK_INBOX.ID.eq(id))
        .execute();
    return id;
  }
}

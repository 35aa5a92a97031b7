package dev.payrelay.ledger.inbox;

import static dev.payrelay.ledger.db.generated.Tables.WEBHOOK_INBOX;
import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.testing.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The webhook inbox on real MariaDB/MySQL: rows stored and never decided, read back. */
class WebhookInboxStoreTest {

  private static TestDatabase db;
  private static DSLContext dsl;
  private static WebhookInboxStore inbox;

  @BeforeAll
  static void setUp() {
    db = TestDatabase.create(WebhookInboxStoreTest.class);
    dsl = db.database().dsl();
    inbox = new WebhookInboxStore(dsl);
  }

  @AfterAll
  static void tearDown() {
    db.close();
  }

  @Test
  void headers_areKeptOnlyWhenAChannelNeedsThem_everyOtherValueIsStoredAsRedacted() {
    Map<String, String> headers = new java.util.HashMap<>();
    for (String credential :
        List.of("X-Auth-Token", "Api-Key", "X-Access-Token", "Authorization", "Cookie", "X-Mine")) {
      headers.put(credential, "s3cret-" + credential);
    }
    Map<String, String> kept =
        Map.of(
            "Content-Type", "application/json",
            "X-Sandbox-Signature", "v1=abc",
            "X-Sandbox-Timestamp", "1700000000",
            "Stripe-Signature", "t=1,v1=def",
            "Wechatpay-Signature", "c2ln",
            "wechatpay-nonce", "n-1",
            "Wechatpay-Timestamp", "1700000000",
            "Wechatpay-Serial", "5157F09E",
            "Wechatpay-Signature-Type", "WECHATPAY2-SHA256-RSA2048");
    headers.putAll(kept);
    long id = inbox.record(new ReceivedCallback("sandbox", headers, new byte[0], null));

    String stored =
        dsl.select(WEBHOOK_INBOX.HEADERS)
            .from(WEBHOOK_INBOX)
            .where(WEBHOOK_INBOX.ID.eq(id))
            .fetchOne(WEBHOOK_INBOX.HEADERS);
    Map<String, String> back = WebhookInboxStore.headersOf(stored);

    assertThat(stored).doesNotContain("s3cret");
    assertThat(back)
        .containsAllEntriesOf(kept)
        .containsEntry("X-Auth-Token", "[redacted]")
        .containsEntry("Api-Key", "[redacted]")
        .containsEntry("X-Access-Token", "[redacted]")
        .containsEntry("X-Mine", "[redacted]");
  }

  @Test
  void undecided_areTheRowsStillReceived_betweenTheAgeAndTheWindow_oldestFirst_readBackWhole() {
    byte[] body = "{\"payment_id\":\"pay_1\",\"note\":\"ü\"}".getBytes(StandardCharsets.UTF_8);
    Map<String, String> headers =
        Map.of(
            "Content-Type", "application/json",
            "X-Sandbox-Signature", "v1=ab: cd",
            "Authorization", "Bearer secret",
            "User-Agent", "");
    long older =
        backdated(inbox.record(new ReceivedCallback("sandbox", headers, body, "10.0.0.9")), 3);
    long old = backdated(inbox.record(new ReceivedCallback("stripe", Map.of(), body, null)), 2);
    long decided = backdated(inbox.record(new ReceivedCallback("sandbox", headers, body, null)), 2);
    inbox.complete(decided, new InboxCompletion(true, "CONFIRMED", "paid", 200, "pay_1", "n1"));
    long fresh = inbox.record(new ReceivedCallback("sandbox", headers, body, null));
    long outsideWindow =
        backdated(inbox.record(new ReceivedCallback("sandbox", headers, body, null)), 30 * 24);

    var undecided = inbox.undecided(Duration.ofMinutes(10), Duration.ofDays(7), null, 100);

    assertThat(undecided).extracting(StoredCallback::inboxId).containsExactly(older, old);
    assertThat(undecided).extracting(StoredCallback::inboxId).doesNotContain(fresh, outsideWindow);
    StoredCallback first = undecided.getFirst();
    assertThat(first.ageSeconds()).isBetween(3 * 3600L - 60, 3 * 3600L + 60);
    assertThat(first.receivedAt()).isBefore(Instant.now().minus(Duration.ofHours(2)));
    assertThat(first.request().channel()).isEqualTo("sandbox");
    assertThat(first.request().remoteAddr()).isEqualTo("10.0.0.9");
    assertThat(first.request().rawBody()).isEqualTo(body);
    assertThat(first.request().headers())
        .containsEntry("Content-Type", "application/json")
        .containsEntry("X-Sandbox-Signature", "v1=ab: cd")
        .containsEntry("Authorization", "[redacted]")
        .containsEntry("User-Agent", "");
    assertThat(inbox.undecided(Duration.ofMinutes(10), Duration.ofDays(7), null, 1))
        .extracting(StoredCallback::inboxId)
        .containsExactly(older);
    assertThat(inbox.undecided(Duration.ofMinutes(10), Duration.ofDays(7), first, 1))
        .as("the page after the first row")
        .extracting(StoredCallback::inboxId)
        .containsExactly(old);
    assertThat(inbox.undecided(Duration.ofMinutes(10), Duration.ofDays(7), undecided.getLast(), 1))
        .isEmpty();
    assertThat(inbox.undecided(Duration.ofMinutes(10), Duration.ofMinutes(150), null, 100))
        .extracting(StoredCallback::inboxId)
        .containsExactly(old);
  }

  /** Moves row {@code id}'s arrival {@code hours} into the past; returns the id. */
  private static long backdated(long id, int hours) {
    dsl.update(WEBHOOK_INBOX)
        .set(WEBHOOK_INBOX.RECEIVED_AT, SqlTime.nowPlus(Duration.ofHours(-hours)))
        .where(WEBHOOK_INBOX.ID.eq(id))
        .execute();
    return id;
  }
}

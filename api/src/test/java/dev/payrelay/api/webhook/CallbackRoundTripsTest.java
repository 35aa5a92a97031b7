package dev.payrelay.api.webhook;

import static dev.payrelay.ledger.db.generated.Tables.WEBHOOK_INBOX;
import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.channels.sandbox.SandboxChannel;
import dev.payrelay.channels.sandbox.SandboxChannelConfig;
import dev.payrelay.channels.sandbox.SandboxNotification;
import dev.payrelay.channels.sandbox.SandboxSignature;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.domain.channel.ChannelAccount;
import dev.payrelay.domain.channel.ChannelRegistry;
import dev.payrelay.domain.crash.CrashPoints;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.ledger.db.Database;
import dev.payrelay.ledger.inbox.WebhookInboxStore;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.payment.PaymentLedger;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.ledger.testing.TestDatabase;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * How many statements one sandbox callback sends to the real MariaDB (issue 29 target 2: at most 6,
 * no {@code SET autocommit} pair), counted by the server itself: the session's {@code Questions}
 * status (every statement a client sent, {@code SET autocommit} and {@code COMMIT} included; per
 * the MariaDB manual's "Server Status Variables") read before and after the callback on the pool's
 * only connection, with the {@code Com_*} counters that moved named in the failure message.
 */
class CallbackRoundTripsTest {

  private static final String SECRET = "round-trips-secret";
  private static final int MAX_ROUND_TRIPS = 6;

  private static TestDatabase db;
  private static Database onePool;
  private static DSLContext dsl;
  private static PaymentStore payments;
  private static WebhookService webhooks;

  @BeforeAll
  static void setUp() {
    db = TestDatabase.create(CallbackRoundTripsTest.class);
    // One connection, so every statement of a callback and the status reads share one session.
    onePool = Database.open(db.config().withPool("round-trips", 1));
    dsl = onePool.dsl();
    OutboxWriter writer = new OutboxWriter(new EventJson());
    payments = new PaymentStore(dsl, writer);
    SandboxChannel sandbox =
        new SandboxChannel(
            new SandboxChannelConfig(
                URI.create("http://127.0.0.1:9"),
                Payments.MERCHANT,
                SECRET,
                URI.create("http://127.0.0.1:9/v1/webhooks/sandbox"),
                Duration.ofMinutes(5),
                Duration.ofSeconds(1)),
            Clock.systemUTC(),
            HttpClient.newHttpClient());
    webhooks =
        new WebhookService(
            new WebhookInboxStore(dsl),
            new PaymentLedger(dsl, payments, writer),
            ChannelRegistry.of(List.of(ChannelAccount.defaultAccount(Payments.MERCHANT, sandbox))),
            new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
            Clock.systemUTC(),
            () -> {},
            CrashPoints.none());
    // Warm up: every statement of both paths prepared and cached before anything is counted.
    PaymentRow warm = pending();
    post(warm);
    post(warm);
  }

  @AfterAll
  static void tearDown() {
    onePool.close();
    db.close();
  }

  @Test
  void statusReads_countThemselvesOnce_soTheCountsBelowAreExact() {
    Map<String, Long> before = status();
    Map<String, Long> after = status();

    assertThat(after.get("Questions") - before.get("Questions")).isEqualTo(1);
  }

  @Test
  void acceptedCallback_sendsAtMostSixStatements_andNoSetAutocommit() {
    PaymentRow p = pending();

    Counted accepted = counted(() -> post(p));
    System.out.println("accepted callback: " + accepted.describe());

    assertThat(accepted.response().status()).isEqualTo(200);
    assertThat(payments.find(p.paymentId()).orElseThrow().status()).isEqualTo(PaymentStatus.PAID);
    assertThat(outcome(accepted.response().inboxId())).isEqualTo("CONFIRMED");
    assertThat(accepted.statements()).as(accepted.describe()).isLessThanOrEqualTo(MAX_ROUND_TRIPS);
    assertThat(accepted.moved()).as(accepted.describe()).doesNotContainKey("Com_set_option");
  }

  @Test
  void duplicateCallback_sendsAtMostSixStatements_andNoSetAutocommit() {
    PaymentRow p = pending();
    post(p);

    Counted duplicate = counted(() -> post(p));
    System.out.println("duplicate callback: " + duplicate.describe());

    assertThat(duplicate.response().status()).isEqualTo(200);
    assertThat(outcome(duplicate.response().inboxId())).isEqualTo("DUPLICATE");
    assertThat(duplicate.statements())
        .as(duplicate.describe())
        .isLessThanOrEqualTo(MAX_ROUND_TRIPS);
    assertThat(duplicate.moved()).as(duplicate.describe()).doesNotContainKey("Com_set_option");
  }

  /** A callback's answer and the session counters it moved (the closing status read excluded). */
  private record Counted(WebhookResponse response, long statements, Map<String, Long> moved) {
    String describe() {
      return statements + " statements; counters moved: " + moved;
    }
  }

  private static Counted counted(java.util.function.Supplier<WebhookResponse> callback) {
    Map<String, Long> before = status();
    WebhookResponse response = callback.get();
    Map<String, Long> after = status();
    Map<String, Long> moved = new TreeMap<>();
    after.forEach(
        (name, value) -> {
          long delta = value - before.getOrDefault(name, 0L);
          // The closing SHOW STATUS counts once in Questions and once in Com_show_status.
          if (name.equals("Questions") || name.equals("Com_show_status")) {
            delta--;
          }
          if (delta != 0) {
            moved.put(name, delta);
          }
        });
    return new Counted(response, moved.getOrDefault("Questions", 0L), moved);
  }

  /**
   * The session's {@code Questions} and {@code Com_*} counters, read with a plain statement (not
   * prepared, so no prepare is sent for it) on the pool's only connection.
   */
  private static Map<String, Long> status() {
    return dsl.connectionResult(
        c -> {
          Map<String, Long> values = new HashMap<>();
          try (Statement s = c.createStatement();
              ResultSet r =
                  s.executeQuery(
                      "SHOW SESSION STATUS WHERE Variable_name = 'Questions'"
                          + " OR Variable_name LIKE 'Com\\_%'")) {
            while (r.next()) {
              values.put(r.getString(1), Long.parseLong(r.getString(2)));
            }
          }
          return values;
        });
  }

  private static PaymentRow pending() {
    return payments.create(Payments.newPayment(Money.parse("10.50", "USD"), "c1")).payment();
  }

  /** A PAID sandbox callback for {@code p}, signed with {@link #SECRET}, same id every time. */
  private static WebhookResponse post(PaymentRow p) {
    byte[] body =
        new SandboxNotification(
                "n-" + p.paymentId(),
                Payments.MERCHANT,
                p.paymentId(),
                "sbx_" + UUID.nameUUIDFromBytes(p.paymentId().getBytes()),
                "10.50",
                "USD",
                "PAID",
                Instant.now())
            .toJson();
    Map<String, String> headers =
        new HashMap<>(
            new SandboxSignature(SECRET, Duration.ofMinutes(5), Clock.systemUTC())
                .headersFor(body));
    headers.put("Content-Type", "application/json");
    return webhooks.handle("sandbox", headers, body, "127.0.0.1");
  }

  private static String outcome(long inboxId) {
    return dsl.select(WEBHOOK_INBOX.OUTCOME)
        .from(WEBHOOK_INBOX)
        .where(WEBHOOK_INBOX.ID.eq(inboxId))
        .fetchSingle(WEBHOOK_INBOX.OUTCOME);
  }
}

package dev.payrelay.tools.bench;

import dev.payrelay.api.webhook.WebhookResponse;
import dev.payrelay.api.webhook.WebhookService;
import dev.payrelay.channels.sandbox.SandboxChannel;
import dev.payrelay.channels.sandbox.SandboxChannelConfig;
import dev.payrelay.channels.sandbox.SandboxSignature;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.ChannelAccount;
import dev.payrelay.domain.channel.ChannelRegistry;
import dev.payrelay.domain.crash.CrashPoints;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.ledger.db.Database;
import dev.payrelay.ledger.inbox.WebhookInboxStore;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.payment.NewPayment;
import dev.payrelay.ledger.payment.PaymentLedger;
import dev.payrelay.ledger.payment.PaymentStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jooq.DSLContext;

/**
 * The statements one accepted callback sends, recorded from payrelay's own code: a {@link
 * WebhookService} built as the API builds it (inbox, ledger, sandbox channel; as in {@code
 * CallbackRoundTripsTest}, which counts them), on a database migrated to payrelay's schema, handed
 * a signed PAID sandbox callback ({@link PayrelayClient#paidBody}) with {@link StatementRecorder}
 * between it and the pool. So the SQL text, the bind values and the transaction statements are the
 * ones the ledger renders and sends, not a copy of them. Two callbacks (accepted, then duplicate)
 * run first so that nothing is recorded cold.
 *
 * @param statements what the callback sent, in order
 * @param paymentId its payment's id
 * @param inboxId the id its inbox row got
 */
record CallbackStatements(List<RecordedStatement> statements, String paymentId, long inboxId) {

  /**
   * Where the recorded inbox row's id starts: high enough that no other value of the recording (a
   * version, an amount) equals it, so {@link Substitution} replaces the key and nothing else.
   */
  static final long FIRST_INBOX_ID = 1_000_000_007L;

  /** The sandbox's base URL: never called, the callback's verification is local. */
  private static final URI NOWHERE = URI.create("http://127.0.0.1:9");

  /**
   * Records one accepted callback on {@code database} (migrated, and a scratch one: the callbacks
   * write to it).
   *
   * @throws IllegalStateException when the callback is not accepted (the figures would be of
   *     another path)
   */
  static CallbackStatements record(Database database, String merchantId, String secret) {
    database.dsl().execute("ALTER TABLE webhook_inbox AUTO_INCREMENT = " + FIRST_INBOX_ID);
    DSLContext base = database.dsl();
    StatementRecorder recorder = new StatementRecorder(base.configuration().connectionProvider());
    DSLContext dsl = base.configuration().derive(recorder).dsl();
    OutboxWriter writer = new OutboxWriter(new EventJson());
    PaymentStore payments = new PaymentStore(dsl, writer);
    SandboxChannel sandbox =
        new SandboxChannel(
            new SandboxChannelConfig(
                NOWHERE,
                merchantId,
                secret,
                NOWHERE.resolve("/v1/webhooks/sandbox"),
                SandboxSignature.DEFAULT_TOLERANCE,
                Duration.ofSeconds(1)),
            Clock.systemUTC(),
            HttpClient.newHttpClient());
    WebhookService webhooks =
        new WebhookService(
            new WebhookInboxStore(dsl),
            new PaymentLedger(dsl, payments, writer),
            ChannelRegistry.of(List.of(ChannelAccount.defaultAccount(merchantId, sandbox))),
            new SimpleMeterRegistry(),
            Clock.systemUTC(),
            () -> {},
            CrashPoints.none());
    SandboxSignature signer =
        new SandboxSignature(secret, SandboxSignature.DEFAULT_TOLERANCE, Clock.systemUTC());
    String warm = pending(payments, merchantId, "warm");
    post(webhooks, signer, merchantId, warm);
    post(webhooks, signer, merchantId, warm);
    String paymentId = pending(payments, merchantId, "recorded");
    recorder.start();
    WebhookResponse accepted = post(webhooks, signer, merchantId, paymentId);
    List<RecordedStatement> statements = recorder.stop();
    if (accepted.status() != 200) {
      throw new IllegalStateException(
          "the recorded callback was answered " + accepted.status() + ": " + accepted.body());
    }
    return new CallbackStatements(statements, paymentId, accepted.inboxId());
  }

  /**
   * A PENDING payment of {@value PayrelayClient#AMOUNT} {@value PayrelayClient#CURRENCY} created by
   * payrelay's {@link PaymentStore}, as {@code POST /v1/payments} creates it.
   */
  static String pending(PaymentStore payments, String merchantId, String order) {
    return payments
        .create(
            new NewPayment(
                "bench",
                "order-" + order + "-" + UUID.randomUUID(),
                "bench-user",
                "sandbox",
                merchantId,
                Money.parse(PayrelayClient.AMOUNT, PayrelayClient.CURRENCY),
                List.of("course-bench"),
                null,
                null,
                Duration.ofMinutes(30)))
        .payment()
        .paymentId();
  }

  private static WebhookResponse post(
      WebhookService webhooks, SandboxSignature signer, String merchantId, String paymentId) {
    byte[] body = PayrelayClient.paidBody(merchantId, paymentId);
    Map<String, String> headers = new HashMap<>(signer.headersFor(body));
    headers.put("Content-Type", "application/json");
    return webhooks.handle("sandbox", headers, body, "127.0.0.1");
  }

  /** Every bind value of the recording, where {@link Substitution} finds the UUIDs to renew. */
  List<Object> values() {
    List<Object> values = new ArrayList<>();
    for (RecordedStatement s : statements) {
      s.binds().forEach(b -> values.addAll(List.of(b.args()).subList(1, b.args().length)));
    }
    return values;
  }

  /** One line per statement: its checkout and SQL, for the report. */
  String describe() {
    StringBuilder b = new StringBuilder();
    for (RecordedStatement s : statements) {
      b.append("  [").append(s.checkout()).append("] ").append(s.sql()).append('\n');
    }
    return b.toString();
  }
}

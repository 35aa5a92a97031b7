package dev.payrelay.api.webhook;

import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_EXCEPTION;
import static dev.payrelay.ledger.db.generated.Tables.WEBHOOK_INBOX;
import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.domain.channel.CallbackOutcome;
import dev.payrelay.domain.channel.CallbackRequest;
import dev.payrelay.domain.channel.ChannelAccount;
import dev.payrelay.domain.channel.ChannelPaymentRequest;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.ChannelQueryResult;
import dev.payrelay.domain.channel.ChannelRefundStatus;
import dev.payrelay.domain.channel.ChannelRegistration;
import dev.payrelay.domain.channel.ChannelRegistry;
import dev.payrelay.domain.channel.ChannelReply;
import dev.payrelay.domain.channel.PaymentChannel;
import dev.payrelay.domain.channel.RefundReport;
import dev.payrelay.domain.channel.StatementPage;
import dev.payrelay.domain.channel.VerifiedCallback;
import dev.payrelay.domain.crash.CrashPoints;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.ledger.inbox.WebhookInboxStore;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.payment.PaymentLedger;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.ledger.testing.TestDatabase;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Refund callbacks through {@link WebhookService}, one level below the HTTP route, on real MariaDB:
 * the raw callback is stored, its refund applied once, each notification's outcome recorded. No
 * adapter on main parses refund callbacks yet (another lane builds them), so the channel here is a
 * test adapter whose "verification" reads the refund from the body.
 */
class RefundCallbackWebhookTest {

  private static TestDatabase db;
  private static DSLContext dsl;
  private static PaymentStore payments;
  private static PaymentLedger ledger;
  private static WebhookService webhooks;

  @BeforeAll
  static void setUp() {
    db = TestDatabase.create(RefundCallbackWebhookTest.class);
    dsl = db.database().dsl();
    OutboxWriter writer = new OutboxWriter(new EventJson());
    payments = new PaymentStore(dsl, writer);
    ledger = new PaymentLedger(dsl, payments, writer);
    webhooks =
        new WebhookService(
            new WebhookInboxStore(dsl),
            ledger,
            ChannelRegistry.of(
                List.of(ChannelAccount.defaultAccount(Payments.MERCHANT, new ReportingChannel()))),
            new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
            Clock.systemUTC(),
            () -> {},
            CrashPoints.none());
  }

  @AfterAll
  static void tearDown() {
    db.close();
  }

  @Test
  void dashboardRefundReportedTwice_isStoredTwice_appliedOnce_withOutcomesRecorded() {
    PaymentRow p = Payments.paid(payments, ledger, Money.ofMinor(1050, "USD"), "c1");

    WebhookResponse first = post(p.paymentId() + "|n-1|re_dash|1050");
    WebhookResponse repeat = post(p.paymentId() + "|n-2|re_dash|1050");

    assertThat(first.status()).isEqualTo(200);
    assertThat(repeat.status()).isEqualTo(200);
    assertThat(outcome(first.inboxId())).isEqualTo(CallbackOutcome.REFUND_NOT_REQUESTED.name());
    assertThat(outcome(repeat.inboxId())).isEqualTo(CallbackOutcome.REFUND_DUPLICATE.name());
    assertThat(payments.find(p.paymentId()).orElseThrow().status())
        .isEqualTo(PaymentStatus.REFUNDED);
    assertThat(Payments.events(dsl, p.paymentId(), "PaymentRefunded")).isEqualTo(1);
    assertThat(dsl.fetchCount(PAYMENT_EXCEPTION, PAYMENT_EXCEPTION.PAYMENT_ID.eq(p.paymentId())))
        .isEqualTo(1);
  }

  private static WebhookResponse post(String body) {
    return webhooks.handle(
        ReportingChannel.NAME,
        Map.of("Content-Type", "application/json"),
        body.getBytes(StandardCharsets.UTF_8),
        "127.0.0.1");
  }

  private static String outcome(long inboxId) {
    return dsl.select(WEBHOOK_INBOX.OUTCOME)
        .from(WEBHOOK_INBOX)
        .where(WEBHOOK_INBOX.ID.eq(inboxId))
        .fetchSingle(WEBHOOK_INBOX.OUTCOME);
  }

  /**
   * A channel named {@code sandbox} (the test payments' channel) whose callbacks are {@code
   * paymentId|notificationId|channelRefundId|amountMinor}: one SUCCEEDED USD refund we did not
   * request. It only stands in for an adapter's parsing; nothing else is called.
   */
  private static final class ReportingChannel implements PaymentChannel {
    static final String NAME = "sandbox";

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public VerifiedCallback verifyCallback(CallbackRequest request) {
      String[] f = new String(request.rawBody(), StandardCharsets.UTF_8).split("\\|");
      Money amount = Money.ofMinor(Long.parseLong(f[3]), "USD");
      return new VerifiedCallback(
          f[1],
          Payments.MERCHANT,
          f[0],
          "t-" + f[0],
          amount,
          ChannelPaymentStatus.REFUNDED,
          List.of(new RefundReport(f[2], null, amount, ChannelRefundStatus.SUCCEEDED, null)));
    }

    @Override
    public ChannelRegistration register(ChannelPaymentRequest request) {
      throw new UnsupportedOperationException();
    }

    @Override
    public ChannelQueryResult query(String paymentId) {
      throw new UnsupportedOperationException();
    }

    @Override
    public ChannelQueryResult close(String paymentId) {
      throw new UnsupportedOperationException();
    }

    @Override
    public StatementPage statement(LocalDate date, String pageToken) {
      throw new UnsupportedOperationException();
    }

    @Override
    public ChannelReply reply(CallbackOutcome outcome) {
      return new ChannelReply(outcome.acknowledged() ? 200 : 503, "text/plain", outcome.name());
    }
  }
}

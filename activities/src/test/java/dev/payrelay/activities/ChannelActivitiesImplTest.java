package dev.payrelay.activities;

import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_EXCEPTION;
import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.CallbackOutcome;
import dev.payrelay.domain.channel.ChannelAccount;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.ChannelQueryResult;
import dev.payrelay.domain.channel.ChannelRegistry;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.payment.PaymentLedger;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.ledger.testing.TestDatabase;
import dev.payrelay.workflows.activities.ChannelCallRequest;
import dev.payrelay.workflows.activities.ChannelStatus;
import java.util.List;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The channel activities on the real database: a query answering that the money went back (a
 * refund) or is contested (a dispute) records that exception through the ledger, once however often
 * the channel repeats it, and still returns the channel's answer.
 */
class ChannelActivitiesImplTest {

  private static TestDatabase db;
  private static DSLContext dsl;
  private static PaymentStore payments;
  private static AnsweringChannel channel;
  private static ChannelActivitiesImpl activities;

  @BeforeAll
  static void setUp() {
    db = TestDatabase.create(ChannelActivitiesImplTest.class);
    dsl = db.database().dsl();
    OutboxWriter outbox = new OutboxWriter(new EventJson());
    payments = new PaymentStore(dsl, outbox);
    channel = new AnsweringChannel();
    activities =
        new ChannelActivitiesImpl(
            ChannelRegistry.of(List.of(ChannelAccount.defaultAccount(Payments.MERCHANT, channel))),
            payments,
            new PaymentLedger(dsl, payments, outbox));
  }

  @AfterAll
  static void tearDown() {
    db.close();
  }

  @Test
  void queryAnsweringRefunded_recordsOneRefundedException_andReturnsTheAnswer() {
    PaymentRow p =
        payments.create(Payments.newPayment(Money.parse("10.50", "USD"), "c1")).payment();
    channel.answer = ChannelPaymentStatus.REFUNDED;

    ChannelStatus first = activities.query(new ChannelCallRequest(p.paymentId(), "sandbox"));
    ChannelStatus again = activities.query(new ChannelCallRequest(p.paymentId(), "sandbox"));

    assertThat(first.status()).isEqualTo("REFUNDED");
    assertThat(again).isEqualTo(first);
    assertThat(exceptions(p, CallbackOutcome.REFUNDED)).isEqualTo(1);
    assertThat(
            dsl.fetchCount(
                OUTBOX_EVENT,
                OUTBOX_EVENT
                    .AGGREGATE_ID
                    .eq(p.paymentId())
                    .and(OUTBOX_EVENT.EVENT_TYPE.eq("PaymentExceptionRecorded"))))
        .isEqualTo(1);
    assertThat(payments.find(p.paymentId()).orElseThrow().status().name()).isEqualTo("PENDING");
  }

  @Test
  void queryAnsweringDisputed_recordsADisputedException_butPendingOrNotFoundRecordNothing() {
    PaymentRow disputed =
        payments.create(Payments.newPayment(Money.parse("3.00", "USD"), "c1")).payment();
    PaymentRow pending =
        payments.create(Payments.newPayment(Money.parse("3.00", "USD"), "c1")).payment();

    channel.answer = ChannelPaymentStatus.DISPUTED;
    activities.query(new ChannelCallRequest(disputed.paymentId(), "sandbox"));
    channel.answer = ChannelPaymentStatus.PENDING;
    activities.query(new ChannelCallRequest(pending.paymentId(), "sandbox"));
    channel.answer = ChannelPaymentStatus.NOT_FOUND;
    activities.query(new ChannelCallRequest(pending.paymentId(), "sandbox"));

    assertThat(exceptions(disputed, CallbackOutcome.DISPUTED)).isEqualTo(1);
    assertThat(
            dsl.fetchCount(PAYMENT_EXCEPTION, PAYMENT_EXCEPTION.PAYMENT_ID.eq(pending.paymentId())))
        .isZero();
  }

  private static int exceptions(PaymentRow p, CallbackOutcome kind) {
    return dsl.fetchCount(
        PAYMENT_EXCEPTION,
        PAYMENT_EXCEPTION
            .PAYMENT_ID
            .eq(p.paymentId())
            .and(PAYMENT_EXCEPTION.KIND.eq(kind.name()))
            .and(PAYMENT_EXCEPTION.STATUS.eq("OPEN")));
  }

  /** A channel that answers every query and close with {@link #answer} for the full amount. */
  private static final class AnsweringChannel extends StubChannel {

    volatile ChannelPaymentStatus answer = ChannelPaymentStatus.PENDING;

    @Override
    public ChannelQueryResult query(String paymentId) {
      return new ChannelQueryResult(
          paymentId,
          answer,
          answer == ChannelPaymentStatus.NOT_FOUND ? null : "t-" + paymentId,
          answer == ChannelPaymentStatus.NOT_FOUND ? null : Money.parse("10.50", "USD"));
    }

    @Override
    public ChannelQueryResult close(String paymentId) {
      return query(paymentId);
    }
  }
}

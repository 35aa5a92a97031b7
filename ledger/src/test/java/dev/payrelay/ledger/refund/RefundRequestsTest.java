package dev.payrelay.ledger.refund;

import static dev.payrelay.ledger.db.generated.Tables.REFUND;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.domain.RefundIds;
import dev.payrelay.domain.RefundState;
import dev.payrelay.domain.ResolutionAction;
import dev.payrelay.domain.channel.CallbackOutcome;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.VerifiedCallback;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.domain.event.PaymentRefunded;
import dev.payrelay.domain.event.RefundRequested;
import dev.payrelay.ledger.db.generated.Tables;
import dev.payrelay.ledger.operator.OperatorDecision;
import dev.payrelay.ledger.operator.PaymentResolutions;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.payment.PaymentLedger;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.ledger.refund.RefundRefused.Reason;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.ledger.testing.TestDatabase;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class RefundRequestsTest {

  private static final String BY = "alice (key k1)";
  private static final Money TEN_FIFTY = Money.ofMinor(1050, "USD");

  private static TestDatabase db;
  private static DSLContext dsl;
  private static PaymentStore payments;
  private static PaymentLedger ledger;
  private static RefundRequests requests;
  private static RefundOutcomes outcomes;
  private static RefundStore refunds;
  private static final EventJson JSON = new EventJson();

  @BeforeAll
  static void setUp() {
    db = TestDatabase.create(RefundRequestsTest.class);
    dsl = db.database().dsl();
    OutboxWriter writer = new OutboxWriter(JSON);
    payments = new PaymentStore(dsl, writer);
    ledger = new PaymentLedger(dsl, payments, writer);
    requests = new RefundRequests(dsl, writer);
    outcomes = new RefundOutcomes(dsl, writer);
    refunds = new RefundStore(dsl);
  }

  @AfterAll
  static void tearDown() {
    db.close();
  }

  @Test
  void request_ofAPaidPayment_isRequestedWithANumber_andOneRefundRequestedEvent() {
    PaymentRow p = paid();

    RequestedRefund r = requests.request("t1", p.paymentId(), 300, "course cancelled", key(), BY);

    assertThat(r.created()).isTrue();
    assertThat(r.refund().state()).isEqualTo(RefundState.REQUESTED);
    assertThat(r.refund().amount()).isEqualTo(Money.ofMinor(300, "USD"));
    assertThat(r.refund().requestedBy()).isEqualTo(BY);
    assertThat(RefundIds.isNumber(r.refund().refundNo())).isTrue();
    assertThat(Payments.events(dsl, p.paymentId(), "RefundRequested")).isEqualTo(1);
    RefundRequested event =
        JSON.decode(payload(p.paymentId(), "RefundRequested"), RefundRequested.class);
    assertThat(event.refundId()).isEqualTo(r.refund().refundId());
    assertThat(event.refundNo()).isEqualTo(r.refund().refundNo());
    assertThat(event.amountMinor()).isEqualTo(300);
    assertThat(event.channel()).isEqualTo("sandbox");
    assertThat(refunds.ofPayment(p.paymentId())).containsExactly(r.refund());
  }

  @Test
  void sameKeyAndBody_answersTheSameRefund_withoutASecondRowOrEvent_andAnotherBodyConflicts() {
    PaymentRow p = paid();
    String key = key();

    RequestedRefund first = requests.request("t1", p.paymentId(), 500, "duplicate order", key, BY);
    RequestedRefund again = requests.request("t1", p.paymentId(), 500, "duplicate order", key, BY);

    assertThat(again.created()).isFalse();
    assertThat(again.refund()).isEqualTo(first.refund());
    assertThat(refunds.ofPayment(p.paymentId())).hasSize(1);
    assertThat(Payments.events(dsl, p.paymentId(), "RefundRequested")).isEqualTo(1);
    assertRefused(
        () -> requests.request("t1", p.paymentId(), 400, "duplicate order", key, BY),
        Reason.KEY_REUSED);
    assertRefused(
        () -> requests.request("t1", paid().paymentId(), 500, "duplicate order", key, BY),
        Reason.KEY_REUSED);
  }

  @Test
  void overRefund_isRefusedNamingTheAmounts_andAFailedRefundFreesItsAmount() {
    PaymentRow p = paid();
    RequestedRefund first = requests.request("t1", p.paymentId(), 1000, "most of it", key(), BY);

    assertThatThrownBy(() -> requests.request("t1", p.paymentId(), 51, "the rest", key(), BY))
        .isInstanceOfSatisfying(
            RefundRefused.class, e -> assertThat(e.reason()).isEqualTo(Reason.EXCEEDS_CAPTURE))
        .hasMessageContaining("refund of 51")
        .hasMessageContaining("captured 1050 USD")
        .hasMessageContaining("1000 already refunded or in progress, 50 refundable");

    outcomes.failed(first.refund().refundId(), "card expired");
    RequestedRefund whole = requests.request("t1", p.paymentId(), 1050, "all of it", key(), BY);
    assertThat(whole.refund().state()).isEqualTo(RefundState.REQUESTED);
  }

  @Test
  void unpaidOrUnknownOrAnotherTenantsPayment_isRefused() {
    PaymentRow pending = payments.create(Payments.newPayment(TEN_FIFTY, "c1")).payment();
    PaymentRow p = paid();

    assertRefused(
        () -> requests.request("t1", pending.paymentId(), 100, "r", key(), BY),
        Reason.NOT_REFUNDABLE);
    assertRefused(
        () -> requests.request("t2", p.paymentId(), 100, "r", key(), BY), Reason.NOT_FOUND);
    assertRefused(() -> requests.request("t1", "pay_none", 100, "r", key(), BY), Reason.NOT_FOUND);
    assertRefused(() -> requests.request("t1", p.paymentId(), 0, "r", key(), BY), Reason.INVALID);
    assertRefused(() -> requests.request("t1", p.paymentId(), 1, " ", key(), BY), Reason.INVALID);
    assertThat(dsl.fetchCount(REFUND, REFUND.PAYMENT_ID.eq(pending.paymentId()))).isZero();
  }

  @Test
  void twoConcurrentFullRefunds_exactlyOneIsAccepted_andTheOtherRefused() throws Exception {
    for (int round = 0; round < 5; round++) {
      PaymentRow p = paid();
      CyclicBarrier start = new CyclicBarrier(2);
      ExecutorService pool = Executors.newFixedThreadPool(2);
      try {
        List<CompletableFuture<Object>> both = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
          both.add(
              CompletableFuture.supplyAsync(
                  () -> {
                    await(start);
                    try {
                      return requests.request("t1", p.paymentId(), 1050, "full", key(), BY);
                    } catch (RefundRefused e) {
                      return e;
                    }
                  },
                  pool));
        }
        List<Object> results = new ArrayList<>();
        for (CompletableFuture<Object> f : both) {
          results.add(f.get(60, TimeUnit.SECONDS));
        }
        assertThat(results).filteredOn(RequestedRefund.class::isInstance).hasSize(1);
        assertThat(results)
            .filteredOn(RefundRefused.class::isInstance)
            .singleElement()
            .satisfies(
                e -> assertThat(((RefundRefused) e).reason()).isEqualTo(Reason.EXCEEDS_CAPTURE));
        assertThat(refunds.ofPayment(p.paymentId())).hasSize(1);
        assertThat(Payments.events(dsl, p.paymentId(), "RefundRequested")).isEqualTo(1);
      } finally {
        pool.shutdownNow();
      }
    }
  }

  @Test
  void succeeded_partialThenRest_movesThePaymentPartiallyThenFullyRefunded_withOneEventPerRefund() {
    PaymentRow p = paid();
    RefundRow part = requests.request("t1", p.paymentId(), 300, "part", key(), BY).refund();
    RefundRow rest = requests.request("t1", p.paymentId(), 750, "rest", key(), BY).refund();

    RefundOutcome first = outcomes.succeeded(part.refundId(), "re_1");
    RefundOutcome repeat = outcomes.succeeded(part.refundId(), "re_1");

    assertThat(first.applied()).isTrue();
    assertThat(first.refund().state()).isEqualTo(RefundState.SUCCEEDED);
    assertThat(first.refund().channelRefundId()).isEqualTo("re_1");
    assertThat(first.refund().succeededAt()).isNotNull();
    assertThat(first.paymentStatus()).isEqualTo(PaymentStatus.PARTIALLY_REFUNDED);
    assertThat(repeat.applied()).isFalse();
    assertThat(repeat.refund()).isEqualTo(first.refund());
    assertThat(repeat.paymentStatus()).isEqualTo(PaymentStatus.PARTIALLY_REFUNDED);
    assertThat(Payments.events(dsl, p.paymentId(), "PaymentRefunded")).isEqualTo(1);
    PaymentRefunded partial =
        JSON.decode(payload(p.paymentId(), "PaymentRefunded"), PaymentRefunded.class);
    assertThat(partial.full()).isFalse();
    assertThat(partial.amountMinor()).isEqualTo(300);
    assertThat(partial.refundId()).isEqualTo(part.refundId());

    RefundOutcome last = outcomes.succeeded(rest.refundId(), "re_2");
    assertThat(last.paymentStatus()).isEqualTo(PaymentStatus.REFUNDED);
    assertThat(payments.find(p.paymentId()).orElseThrow().status())
        .isEqualTo(PaymentStatus.REFUNDED);
    assertThat(Payments.events(dsl, p.paymentId(), "PaymentRefunded")).isEqualTo(2);
    assertRefused(
        () -> requests.request("t1", p.paymentId(), 1, "more", key(), BY), Reason.NOT_REFUNDABLE);
    assertRefused(() -> outcomes.failed(rest.refundId(), "late failure"), Reason.OUTCOME_CONFLICT);
  }

  @Test
  void succeeded_fullRefund_movesAPaidPaymentStraightToRefunded() {
    PaymentRow p = paid();
    RefundRow full = requests.request("t1", p.paymentId(), 1050, "all", key(), BY).refund();

    RefundOutcome done = outcomes.succeeded(full.refundId(), "re_full");

    assertThat(done.paymentStatus()).isEqualTo(PaymentStatus.REFUNDED);
    PaymentRefunded event =
        JSON.decode(payload(p.paymentId(), "PaymentRefunded"), PaymentRefunded.class);
    assertThat(event.full()).isTrue();
    assertThat(event.refundedMinor()).isEqualTo(1050);
    assertThat(event.channelRefundId()).isEqualTo("re_full");
  }

  @Test
  void failed_isIdempotent_andAFailedRefundCannotSucceedLater() {
    PaymentRow p = paid();
    RefundRow r = requests.request("t1", p.paymentId(), 100, "r", key(), BY).refund();

    RefundOutcome failed = outcomes.failed(r.refundId(), "REFUND_CLOSED");
    RefundOutcome again = outcomes.failed(r.refundId(), "REFUND_CLOSED");

    assertThat(failed.applied()).isTrue();
    assertThat(failed.refund().state()).isEqualTo(RefundState.FAILED);
    assertThat(failed.refund().failureReason()).isEqualTo("REFUND_CLOSED");
    assertThat(failed.paymentStatus()).isEqualTo(PaymentStatus.PAID);
    assertThat(again.applied()).isFalse();
    assertThat(again.refund()).isEqualTo(failed.refund());
    assertRefused(() -> outcomes.succeeded(r.refundId(), "re_x"), Reason.OUTCOME_CONFLICT);
    assertRefused(() -> outcomes.failed("rfd_none", "x"), Reason.NOT_FOUND);
    assertThat(Payments.events(dsl, p.paymentId(), "PaymentRefunded")).isZero();
  }

  @Test
  void afterAcceptingTheChannelsSmallerAmount_refundsAreCappedByWhatItCaptured_andItsAllIsFull() {
    PaymentRow p = payments.create(Payments.newPayment(Money.ofMinor(1000, "USD"), "c1")).payment();
    VerifiedCallback eightDollars =
        new VerifiedCallback(
            "n-" + p.paymentId(),
            p.merchantId(),
            p.paymentId(),
            "t-" + p.paymentId(),
            Money.ofMinor(800, "USD"),
            ChannelPaymentStatus.PAID);
    assertThat(ledger.apply(eightDollars, null, "CALLBACK").outcome())
        .isEqualTo(CallbackOutcome.AMOUNT_MISMATCH);
    assertThat(
            new PaymentResolutions(dsl, payments, new OutboxWriter(JSON))
                .resolve(
                    new OperatorDecision(
                        p.paymentId(), "alice", "buyer paid 8.00", ResolutionAction.ACCEPT_AS_PAID))
                .applied())
        .isTrue();

    RefundRow all = requests.request("t1", p.paymentId(), 800, "all of it", key(), BY).refund();

    assertThatThrownBy(() -> requests.request("t1", p.paymentId(), 200, "the rest", key(), BY))
        .isInstanceOfSatisfying(
            RefundRefused.class, e -> assertThat(e.reason()).isEqualTo(Reason.EXCEEDS_CAPTURE))
        .hasMessageContaining("refund of 200 would exceed the captured 800 USD")
        .hasMessageContaining("800 already refunded or in progress, 0 refundable");
    RefundOutcome done = outcomes.succeeded(all.refundId(), "re_all");
    assertThat(done.paymentStatus()).isEqualTo(PaymentStatus.REFUNDED);
    PaymentRefunded event =
        JSON.decode(payload(p.paymentId(), "PaymentRefunded"), PaymentRefunded.class);
    assertThat(event.full()).isTrue();
    assertThat(event.refundedMinor()).isEqualTo(800);
  }

  @Test
  void normalConfirm_capturesThePaymentsOwnAmount() {
    PaymentRow p = paid();

    var row =
        dsl.fetchSingle(Tables.PAYMENT_ORDER, Tables.PAYMENT_ORDER.PAYMENT_ID.eq(p.paymentId()));

    assertThat(row.getCapturedAmountMinor()).isEqualTo(1050L);
    assertThat(row.getCapturedCurrency()).isEqualTo("USD");
  }

  private static PaymentRow paid() {
    return Payments.paid(payments, ledger, TEN_FIFTY, "c1");
  }

  private static String key() {
    return "k-" + UUID.randomUUID();
  }

  private static String payload(String paymentId, String eventType) {
    return dsl.select(Tables.OUTBOX_EVENT.PAYLOAD)
        .from(Tables.OUTBOX_EVENT)
        .where(Tables.OUTBOX_EVENT.AGGREGATE_ID.eq(paymentId))
        .and(Tables.OUTBOX_EVENT.EVENT_TYPE.eq(eventType))
        .orderBy(Tables.OUTBOX_EVENT.SEQ)
        .limit(1)
        .fetchSingle(Tables.OUTBOX_EVENT.PAYLOAD);
  }

  private static void assertRefused(Runnable call, Reason reason) {
    assertThatThrownBy(call::run)
        .isInstanceOfSatisfying(RefundRefused.class, e -> assertThat(e.reason()).isEqualTo(reason));
  }

  private static void await(CyclicBarrier barrier) {
    try {
      barrier.await(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}

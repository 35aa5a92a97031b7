package dev.payrelay.ledger.payment;

import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;
import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_EXCEPTION;
import static dev.payrelay.ledger.db.generated.Tables.WEBHOOK_INBOX;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.PaymentIds;
import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.domain.channel.CallbackOutcome;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.VerifiedCallback;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.ledger.db.generated.tables.records.WebhookInboxRecord;
import dev.payrelay.ledger.inbox.ReceivedCallback;
import dev.payrelay.ledger.inbox.WebhookInboxStore;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.ledger.testing.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class PaymentLedgerTest {

  private static TestDatabase db;
  private static DSLContext dsl;
  private static PaymentStore payments;
  private static PaymentLedger ledger;

  @BeforeAll
  static void setUp() {
    db = TestDatabase.create(PaymentLedgerTest.class);
    dsl = db.database().dsl();
    OutboxWriter outbox = new OutboxWriter(new EventJson());
    payments = new PaymentStore(dsl, outbox);
    ledger = new PaymentLedger(dsl, payments, outbox);
  }

  @AfterAll
  static void tearDown() {
    db.close();
  }

  @Test
  void callbackOfAnotherChannel_namingOurPayment_isOtherChannel_andChangesNothing() {
    PaymentRow p = payments.create(Payments.newPayment(Money.parse("5.00", "USD"), "c1")).payment();
    VerifiedCallback elsewhere =
        new VerifiedCallback(
            "n-x", p.merchantId(), p.paymentId(), "t-x", p.amount(), ChannelPaymentStatus.PAID);

    LedgerResult r = ledger.apply("wechatpay", elsewhere, null, PaymentLedger.CALLBACK);

    assertThat(r.outcome()).isEqualTo(CallbackOutcome.OTHER_CHANNEL);
    assertThat(r.eventId()).isNull();
    assertThat(r.exceptionId()).isNull();
    assertThat(payments.find(p.paymentId()).orElseThrow().status())
        .isEqualTo(PaymentStatus.PENDING);
    assertThat(ledger.apply(p.channel(), elsewhere, null, PaymentLedger.CALLBACK).outcome())
        .isEqualTo(CallbackOutcome.CONFIRMED);
  }

  @Test
  void callbackVerifiedByAnotherAccount_namingOurPayment_isOtherAccount_andTouchesNothing() {
    PaymentRow p = create("5.00", "USD");
    // The signer names our payment's own merchant in the body: the body never decides the account.
    VerifiedCallback foreign = paid(p, "txn-" + p.paymentId(), "5.00", "USD");
    long inboxId = stored(p);

    LedgerResult r =
        ledger.applyCallback(p.channel(), "acct-of-another-tenant", foreign, inboxId, 200, null);

    assertThat(r.outcome()).isEqualTo(CallbackOutcome.OTHER_ACCOUNT);
    assertThat(r.eventId()).isNull();
    assertThat(r.exceptionId()).isNull();
    assertThat(r.detail()).contains("acct-of-another-tenant").contains("nothing changed");
    assertThat(payments.find(p.paymentId()).orElseThrow().status())
        .isEqualTo(PaymentStatus.PENDING);
    assertThat(dsl.fetchCount(PAYMENT_EXCEPTION, PAYMENT_EXCEPTION.PAYMENT_ID.eq(p.paymentId())))
        .isZero();
    assertThat(dsl.fetchSingle(WEBHOOK_INBOX, WEBHOOK_INBOX.ID.eq(inboxId)).getOutcome())
        .isEqualTo("RECEIVED");
    // A wrong amount from the other account records no exception either.
    assertThat(
            ledger
                .applyCallback(
                    p.channel(),
                    "acct-of-another-tenant",
                    paid(p, "txn-" + p.paymentId(), "0.01", "USD"),
                    stored(p),
                    200,
                    null)
                .outcome())
        .isEqualTo(CallbackOutcome.OTHER_ACCOUNT);
    assertThat(dsl.fetchCount(PAYMENT_EXCEPTION, PAYMENT_EXCEPTION.PAYMENT_ID.eq(p.paymentId())))
        .isZero();
    assertThat(
            ledger
                .applyCallback(p.channel(), p.merchantId(), foreign, stored(p), 200, null)
                .outcome())
        .isEqualTo(CallbackOutcome.CONFIRMED);
  }

  @Test
  void oneTenantUsingAnotherTenantsTransactionIdFirst_blocksNothing_ofTheOtherAccount() {
    PaymentRow ofA = create("25.00", "USD");
    NewPayment b = Payments.newPayment(Money.parse("25.00", "USD"), "c1");
    PaymentRow ofB =
        payments
            .create(
                new NewPayment(
                    "t2",
                    b.orderId(),
                    b.userId(),
                    b.channel(),
                    "m_other_tenant",
                    b.amount(),
                    b.courseIds(),
                    null,
                    null,
                    Duration.ofMinutes(30)))
            .payment();
    String txn = "txn-taken-first-" + ofA.paymentId();

    // Tenant A signs its own payment with B's transaction id before B's channel reports it.
    LedgerResult a =
        ledger.applyCallback(
            ofA.channel(),
            ofA.merchantId(),
            paid(ofA, txn, "25.00", "USD"),
            stored(ofA),
            200,
            null);
    LedgerResult genuine =
        ledger.applyCallback(
            ofB.channel(),
            ofB.merchantId(),
            paid(ofB, txn, "25.00", "USD"),
            stored(ofB),
            200,
            null);

    assertThat(a.outcome()).isEqualTo(CallbackOutcome.CONFIRMED);
    assertThat(genuine.outcome()).isEqualTo(CallbackOutcome.CONFIRMED);
    assertThat(exceptions(ofB, "TXN_CONFLICT")).isZero();
    // Within one account a transaction still pays one payment only.
    PaymentRow secondOfA = create("25.00", "USD");
    assertThat(
            ledger
                .applyCallback(
                    secondOfA.channel(),
                    secondOfA.merchantId(),
                    paid(secondOfA, txn, "25.00", "USD"),
                    stored(secondOfA),
                    200,
                    null)
                .outcome())
        .isEqualTo(CallbackOutcome.TXN_CONFLICT);
  }

  @Test
  void matchingCallback_marksPaid_andWritesOneConfirmedEvent() {
    PaymentRow p = create("10.50", "USD");
    LedgerResult r =
        ledger.apply(paid(p, "txn-" + p.paymentId(), "10.50", "USD"), null, "CALLBACK");

    assertThat(r.outcome()).isEqualTo(CallbackOutcome.CONFIRMED);
    assertThat(r.eventId()).isNotNull();
    PaymentRow after = payments.find(p.paymentId()).orElseThrow();
    assertThat(after.status()).isEqualTo(PaymentStatus.PAID);
    assertThat(after.channelTxnId()).isEqualTo("txn-" + p.paymentId());
    assertThat(after.paidAt()).isNotNull();
    assertThat(confirmedEvents(p)).isEqualTo(1);
  }

  @Test
  void duplicateCallback_isAcceptedOnce_andWritesOneEvent() {
    PaymentRow p = create("10.50", "USD");
    VerifiedCallback cb = paid(p, "txn-" + p.paymentId(), "10.50", "USD");

    assertThat(ledger.apply(cb, null, "CALLBACK").outcome()).isEqualTo(CallbackOutcome.CONFIRMED);
    assertThat(ledger.apply(cb, null, "CALLBACK").outcome()).isEqualTo(CallbackOutcome.DUPLICATE);
    assertThat(confirmedEvents(p)).isEqualTo(1);
  }

  @Test
  void tenConcurrentIdenticalCallbacks_confirmOnce() throws Exception {
    PaymentRow p = create("99.99", "EUR");
    VerifiedCallback cb = paid(p, "txn-" + p.paymentId(), "99.99", "EUR");
    List<CallbackOutcome> outcomes =
        concurrently(10, () -> ledger.apply(cb, null, "CALLBACK").outcome());

    assertThat(outcomes).containsOnlyOnce(CallbackOutcome.CONFIRMED);
    assertThat(outcomes).filteredOn(o -> o == CallbackOutcome.DUPLICATE).hasSize(9);
    assertThat(confirmedEvents(p)).isEqualTo(1);
  }

  @Test
  void amountOneMinorUnitShort_staysPending_withOneException_andNoEvent() {
    PaymentRow p = create("10.50", "USD");
    VerifiedCallback cb = paid(p, "txn-" + p.paymentId(), "10.49", "USD");

    assertThat(ledger.apply(cb, null, "CALLBACK").outcome())
        .isEqualTo(CallbackOutcome.AMOUNT_MISMATCH);
    assertThat(ledger.apply(cb, null, "CALLBACK").outcome())
        .isEqualTo(CallbackOutcome.AMOUNT_MISMATCH);
    assertThat(payments.find(p.paymentId()).orElseThrow().status())
        .isEqualTo(PaymentStatus.PENDING);
    assertThat(exceptions(p, "AMOUNT_MISMATCH")).isEqualTo(1);
    assertThat(confirmedEvents(p)).isZero();
  }

  @Test
  void wrongCurrency_staysPending_withOneException_andNoEvent() {
    PaymentRow p = create("10.50", "USD");
    VerifiedCallback cb = paid(p, "txn-" + p.paymentId(), "10.50", "EUR");

    assertThat(ledger.apply(cb, null, "CALLBACK").outcome())
        .isEqualTo(CallbackOutcome.CURRENCY_MISMATCH);
    assertThat(payments.find(p.paymentId()).orElseThrow().status())
        .isEqualTo(PaymentStatus.PENDING);
    assertThat(exceptions(p, "CURRENCY_MISMATCH")).isEqualTo(1);
    assertThat(confirmedEvents(p)).isZero();
  }

  @Test
  void channelTxnAlreadyBoundToAnotherPayment_isTxnConflict_andChangesNeither() {
    PaymentRow first = create("5.00", "USD");
    PaymentRow second = create("5.00", "USD");
    String txn = "txn-shared-" + first.paymentId();
    ledger.apply(paid(first, txn, "5.00", "USD"), null, "CALLBACK");

    LedgerResult r = ledger.apply(paid(second, txn, "5.00", "USD"), null, "CALLBACK");

    assertThat(r.outcome()).isEqualTo(CallbackOutcome.TXN_CONFLICT);
    assertThat(payments.find(second.paymentId()).orElseThrow().status())
        .isEqualTo(PaymentStatus.PENDING);
    assertThat(payments.find(first.paymentId()).orElseThrow().channelTxnId()).isEqualTo(txn);
    assertThat(exceptions(second, "TXN_CONFLICT")).isEqualTo(1);
    assertThat(confirmedEvents(second)).isZero();
  }

  @Test
  void applyCallback_confirmed_completesItsInboxRowInTheLedgersTransaction() {
    PaymentRow p = create("5.00", "USD");
    long inboxId = stored(p);

    LedgerResult r =
        ledger.applyCallback(
            p.channel(),
            p.merchantId(),
            paid(p, "txn-" + p.paymentId(), "5.00", "USD"),
            inboxId,
            200,
            null);

    assertThat(r.outcome()).isEqualTo(CallbackOutcome.CONFIRMED);
    WebhookInboxRecord row = dsl.fetchSingle(WEBHOOK_INBOX, WEBHOOK_INBOX.ID.eq(inboxId));
    assertThat(row.getOutcome()).isEqualTo("CONFIRMED");
    assertThat(row.getSignatureValid()).isTrue();
    assertThat(row.getHttpStatus()).isEqualTo(200);
    assertThat(row.getPaymentId()).isEqualTo(p.paymentId());
    assertThat(row.getOutcomeDetail()).isEqualTo(r.detail());
    assertThat(row.getProcessedAt()).isNotNull();
  }

  @Test
  void applyCallback_confirming_withoutItsInboxRow_failsNamingTheRow_andChangesNothing() {
    PaymentRow p = create("5.00", "USD");
    long inboxId = stored(p);
    dsl.deleteFrom(WEBHOOK_INBOX).where(WEBHOOK_INBOX.ID.eq(inboxId)).execute();

    assertThatThrownBy(
            () ->
                ledger.applyCallback(
                    p.channel(),
                    p.merchantId(),
                    paid(p, "txn-" + p.paymentId(), "5.00", "USD"),
                    inboxId,
                    200,
                    null))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("no webhook_inbox row " + inboxId);
    assertThat(payments.find(p.paymentId()).orElseThrow().status())
        .isEqualTo(PaymentStatus.PENDING);
    assertThat(confirmedEvents(p)).isZero();
  }

  @Test
  void applyCallback_otherOutcomes_leaveTheInboxRowToTheCaller_evenAfterARolledBackConfirm() {
    PaymentRow first = create("5.00", "USD");
    PaymentRow second = create("5.00", "USD");
    String txn = "txn-shared-" + first.paymentId();
    long firstInbox = stored(first);
    ledger.applyCallback(
        first.channel(),
        first.merchantId(),
        paid(first, txn, "5.00", "USD"),
        firstInbox,
        200,
        null);
    long duplicateInbox = stored(first);
    long conflictInbox = stored(second);

    LedgerResult duplicate =
        ledger.applyCallback(
            first.channel(),
            first.merchantId(),
            paid(first, txn, "5.00", "USD"),
            duplicateInbox,
            200,
            null);
    // The second payment's confirm fails on the channel-txn key: nothing of it stays.
    LedgerResult conflict =
        ledger.applyCallback(
            second.channel(),
            second.merchantId(),
            paid(second, txn, "5.00", "USD"),
            conflictInbox,
            200,
            null);

    assertThat(duplicate.outcome()).isEqualTo(CallbackOutcome.DUPLICATE);
    assertThat(conflict.outcome()).isEqualTo(CallbackOutcome.TXN_CONFLICT);
    assertThat(dsl.fetchSingle(WEBHOOK_INBOX, WEBHOOK_INBOX.ID.eq(duplicateInbox)).getOutcome())
        .isEqualTo("RECEIVED");
    assertThat(dsl.fetchSingle(WEBHOOK_INBOX, WEBHOOK_INBOX.ID.eq(conflictInbox)).getOutcome())
        .isEqualTo("RECEIVED");
  }

  @Test
  void applyCallback_onAStaleRead_decidesAgainOnTheRowAsItIs() {
    PaymentRow p = create("5.00", "USD");
    PaymentRow stale = ledger.payment(p.paymentId()).orElseThrow();
    String txn = "txn-" + p.paymentId();
    ledger.applyCallback(
        p.channel(), p.merchantId(), paid(p, txn, "5.00", "USD"), stored(p), 200, null);
    long again = stored(p);

    LedgerResult r =
        ledger.applyCallback(
            p.channel(), p.merchantId(), paid(p, txn, "5.00", "USD"), again, 200, stale);

    assertThat(stale.status()).isEqualTo(PaymentStatus.PENDING);
    assertThat(r.outcome()).isEqualTo(CallbackOutcome.DUPLICATE);
    assertThat(confirmedEvents(p)).isEqualTo(1);
    assertThat(dsl.fetchSingle(WEBHOOK_INBOX, WEBHOOK_INBOX.ID.eq(again)).getOutcome())
        .isEqualTo("RECEIVED");
  }

  @Test
  void applyCallback_ignoresARead_ofAnotherPayment() {
    PaymentRow p = create("5.00", "USD");
    PaymentRow other = create("7.00", "USD");

    LedgerResult r =
        ledger.applyCallback(
            p.channel(),
            p.merchantId(),
            paid(p, "txn-" + p.paymentId(), "5.00", "USD"),
            stored(p),
            200,
            other);

    assertThat(r.outcome()).isEqualTo(CallbackOutcome.CONFIRMED);
    assertThat(r.paymentId()).isEqualTo(p.paymentId());
    assertThat(payments.find(other.paymentId()).orElseThrow().status())
        .isEqualTo(PaymentStatus.PENDING);
  }

  @Test
  void unknownPayment_isNotAcknowledged_andWritesNothing() {
    VerifiedCallback cb =
        new VerifiedCallback(
            "n1",
            Payments.MERCHANT,
            PaymentIds.mint(),
            "txn-x",
            Money.parse("1.00", "USD"),
            ChannelPaymentStatus.PAID);
    LedgerResult r = ledger.apply(cb, null, "CALLBACK");
    assertThat(r.outcome()).isEqualTo(CallbackOutcome.UNKNOWN_PAYMENT);
    assertThat(r.outcome().acknowledged()).isFalse();
    assertThat(dsl.fetchCount(OUTBOX_EVENT, OUTBOX_EVENT.AGGREGATE_ID.eq("pay_nope"))).isZero();
  }

  @Test
  void idempotencyKey_returnsTheSamePayment_andWritesOneCreatedEvent() {
    NewPayment base = Payments.newPayment(Money.parse("3.00", "USD"), "c1");
    NewPayment keyed =
        new NewPayment(
            base.tenantId(),
            base.orderId(),
            base.userId(),
            base.channel(),
            base.merchantId(),
            base.amount(),
            base.courseIds(),
            "key-" + base.orderId(),
            "hash-1",
            base.timeToLive());

    CreatedPayment first = payments.create(keyed);
    CreatedPayment again = payments.create(keyed);

    assertThat(first.created()).isTrue();
    assertThat(again.created()).isFalse();
    assertThat(again.payment().paymentId()).isEqualTo(first.payment().paymentId());
    assertThat(
            dsl.fetchCount(OUTBOX_EVENT, OUTBOX_EVENT.AGGREGATE_ID.eq(first.payment().paymentId())))
        .isEqualTo(1);
  }

  @Test
  void replayedMismatch_isOneExceptionWithOneEvent() {
    PaymentRow p = create("10.50", "USD");
    VerifiedCallback cb = paid(p, "txn-" + p.paymentId(), "10.00", "USD");

    LedgerResult first = ledger.apply(cb, null, "CALLBACK");
    LedgerResult replay = ledger.apply(cb, null, "CALLBACK");

    assertThat(first.eventId()).isNotNull();
    assertThat(replay.eventId()).isNull();
    assertThat(replay.exceptionId()).isEqualTo(first.exceptionId());
    assertThat(
            dsl.fetchCount(
                OUTBOX_EVENT,
                OUTBOX_EVENT
                    .AGGREGATE_ID
                    .eq(p.paymentId())
                    .and(OUTBOX_EVENT.EVENT_TYPE.eq("PaymentExceptionRecorded"))))
        .isEqualTo(1);
  }

  @Test
  void otherMerchant_isMerchantMismatch_andNeverPaid() {
    PaymentRow p = create("1.00", "USD");
    VerifiedCallback cb =
        new VerifiedCallback(
            "n",
            "m_other",
            p.paymentId(),
            "txn-m-" + p.paymentId(),
            p.amount(),
            ChannelPaymentStatus.PAID);
    assertThat(ledger.apply(cb, null, "CALLBACK").outcome())
        .isEqualTo(CallbackOutcome.MERCHANT_MISMATCH);
    assertThat(payments.find(p.paymentId()).orElseThrow().status())
        .isEqualTo(PaymentStatus.PENDING);
    assertThat(exceptions(p, "MERCHANT_MISMATCH")).isEqualTo(1);
  }

  @Test
  void secondChannelTransactionForAPaidPayment_isDoublePayment_andKeepsTheFirst() {
    PaymentRow p = create("1.00", "USD");
    ledger.apply(paid(p, "txn-a-" + p.paymentId(), "1.00", "USD"), null, "CALLBACK");
    assertThat(
            ledger
                .apply(paid(p, "txn-b-" + p.paymentId(), "1.00", "USD"), null, "CALLBACK")
                .outcome())
        .isEqualTo(CallbackOutcome.DOUBLE_PAYMENT);
    assertThat(payments.find(p.paymentId()).orElseThrow().channelTxnId())
        .isEqualTo("txn-a-" + p.paymentId());
    assertThat(confirmedEvents(p)).isEqualTo(1);
  }

  @Test
  void pendingStatusAfterPaid_isStale_andNeverMovesStateBack() {
    PaymentRow p = create("1.00", "USD");
    String txn = "txn-s-" + p.paymentId();
    ledger.apply(paid(p, txn, "1.00", "USD"), null, "CALLBACK");
    VerifiedCallback pending =
        new VerifiedCallback(
            "n2", p.merchantId(), p.paymentId(), txn, p.amount(), ChannelPaymentStatus.PENDING);
    assertThat(ledger.apply(pending, null, "CALLBACK").outcome())
        .isEqualTo(CallbackOutcome.STALE_STATUS);
    assertThat(payments.find(p.paymentId()).orElseThrow().status()).isEqualTo(PaymentStatus.PAID);
  }

  @Test
  void twentyConcurrentCallbacksWithDifferentTransactions_confirmOnce_restAreDoublePayments()
      throws Exception {
    PaymentRow p = create("2.00", "USD");
    java.util.concurrent.atomic.AtomicInteger n = new java.util.concurrent.atomic.AtomicInteger();
    List<CallbackOutcome> outcomes =
        concurrently(
            20,
            () ->
                ledger
                    .apply(
                        paid(p, "txn-c" + n.incrementAndGet() + "-" + p.paymentId(), "2.00", "USD"),
                        null,
                        "CALLBACK")
                    .outcome());

    assertThat(outcomes).containsOnlyOnce(CallbackOutcome.CONFIRMED);
    assertThat(outcomes).filteredOn(o -> o == CallbackOutcome.DOUBLE_PAYMENT).hasSize(19);
    assertThat(confirmedEvents(p)).isEqualTo(1);
    assertThat(exceptions(p, "DOUBLE_PAYMENT")).isEqualTo(19);
  }

  /** A stored callback naming {@code p}, outcome RECEIVED. */
  private static long stored(PaymentRow p) {
    return new WebhookInboxStore(dsl)
        .record(
            new ReceivedCallback(
                p.channel(),
                Map.of("Content-Type", "application/json"),
                new byte[] {'{', '}'},
                "127.0.0.1"));
  }

  private static PaymentRow create(String amount, String currency) {
    return payments
        .create(Payments.newPayment(Money.parse(amount, currency), "c1", "c2"))
        .payment();
  }

  private static VerifiedCallback paid(PaymentRow p, String txn, String amount, String currency) {
    return new VerifiedCallback(
        "n-" + txn,
        p.merchantId(),
        p.paymentId(),
        txn,
        Money.parse(amount, currency),
        ChannelPaymentStatus.PAID);
  }

  private static int confirmedEvents(PaymentRow p) {
    return dsl.fetchCount(
        OUTBOX_EVENT,
        OUTBOX_EVENT
            .AGGREGATE_ID
            .eq(p.paymentId())
            .and(OUTBOX_EVENT.EVENT_TYPE.eq("PaymentConfirmed")));
  }

  private static int exceptions(PaymentRow p, String kind) {
    return dsl.fetchCount(
        PAYMENT_EXCEPTION,
        PAYMENT_EXCEPTION.PAYMENT_ID.eq(p.paymentId()).and(PAYMENT_EXCEPTION.KIND.eq(kind)));
  }

  static <T> List<T> concurrently(int n, Callable<T> task) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(n);
    try {
      List<Callable<T>> tasks = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        tasks.add(task);
      }
      List<T> results = new ArrayList<>();
      for (Future<T> f : pool.invokeAll(tasks)) {
        results.add(f.get());
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }
}

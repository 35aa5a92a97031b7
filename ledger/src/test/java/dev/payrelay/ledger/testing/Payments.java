package dev.payrelay.ledger.testing;

import static dev.payrelay.ledger.db.generated.Tables.OUTBOX_EVENT;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.VerifiedCallback;
import dev.payrelay.ledger.payment.NewPayment;
import dev.payrelay.ledger.payment.PaymentLedger;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.jooq.DSLContext;

/** Payment requests for tests. */
public final class Payments {

  /** The merchant id test payments are created for. */
  public static final String MERCHANT = "m_test";

  private Payments() {}

  /** Creates a payment and confirms it through the ledger as a matching channel callback would. */
  public static PaymentRow paid(
      PaymentStore payments, PaymentLedger ledger, Money amount, String... courseIds) {
    PaymentRow p = payments.create(newPayment(amount, courseIds)).payment();
    pay(ledger, p);
    return p;
  }

  /** Confirms an existing payment through the ledger as a matching channel callback would. */
  public static void pay(PaymentLedger ledger, PaymentRow p) {
    ledger.apply(
        new VerifiedCallback(
            "n-" + p.paymentId(),
            p.merchantId(),
            p.paymentId(),
            "t-" + p.paymentId(),
            p.amount(),
            ChannelPaymentStatus.PAID),
        null,
        "CALLBACK");
  }

  /** A sandbox payment of {@code amount} buying {@code courseIds}, without idempotency key. */
  public static NewPayment newPayment(Money amount, String... courseIds) {
    return new NewPayment(
        "t1",
        "order-" + UUID.randomUUID(),
        "user-" + UUID.randomUUID().toString().substring(0, 8),
        "sandbox",
        MERCHANT,
        amount,
        List.of(courseIds),
        null,
        null,
        Duration.ofMinutes(30));
  }

  /** How many outbox events of {@code eventType} (its wire name) the payment has. */
  public static int events(DSLContext dsl, String paymentId, String eventType) {
    return dsl.fetchCount(
        OUTBOX_EVENT,
        OUTBOX_EVENT.AGGREGATE_ID.eq(paymentId).and(OUTBOX_EVENT.EVENT_TYPE.eq(eventType)));
  }
}

package dev.payrelay.ledger.payment;

import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;
import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.domain.PaymentTransition;
import dev.payrelay.domain.event.EventJson;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.testing.Payments;
import dev.payrelay.ledger.testing.TestDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The one guarded UPDATE of {@code payment_order.status}, and that nothing else writes it. */
class PaymentTransitionsTest {

  /** Where the module's sources are, from its directory (Maven's working directory). */
  private static final Path SOURCES = Path.of("src", "main", "java");

  private static TestDatabase db;
  private static DSLContext dsl;
  private static PaymentStore payments;

  @BeforeAll
  static void setUp() {
    db = TestDatabase.create(PaymentTransitionsTest.class);
    dsl = db.database().dsl();
    payments = new PaymentStore(dsl, new OutboxWriter(new EventJson()));
  }

  @AfterAll
  static void tearDown() {
    db.close();
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(PaymentStatus.class)
  void move_changesTheRowExactlyWhenTheTableStartsTheMoveFromItsStatus(PaymentStatus status) {
    for (PaymentTransition move : PaymentTransition.values()) {
      PaymentRow p = paymentIn(status);
      int version = version(p);

      boolean moved = move(p, move);

      assertThat(moved).as("%s from %s", move, status).isEqualTo(move.startsFrom(status));
      PaymentStatus after = payments.find(p.paymentId()).orElseThrow().status();
      assertThat(after).isEqualTo(moved ? move.to() : status);
      assertThat(version(p)).isEqualTo(moved ? version + 1 : version);
    }
  }

  @Test
  void move_thatFailsItsGuard_changesNothing() {
    PaymentRow p = paymentIn(PaymentStatus.PENDING);

    boolean moved =
        dsl.transactionResult(
            cfg ->
                PaymentTransitions.move(
                    cfg.dsl(),
                    p.paymentId(),
                    PaymentTransition.CONFIRM,
                    PAYMENT_ORDER.AMOUNT_MINOR.eq(p.amount().minorUnits() + 1),
                    Map.of(PAYMENT_ORDER.CHANNEL_TXN_ID, "t-guarded")));

    assertThat(moved).isFalse();
    PaymentRow after = payments.find(p.paymentId()).orElseThrow();
    assertThat(after.status()).isEqualTo(PaymentStatus.PENDING);
    assertThat(after.channelTxnId()).isNull();
  }

  @Test
  void noSourceButPaymentTransitions_setsPaymentStatus_exceptTheInsertOfANewPendingPayment()
      throws IOException {
    List<String> writers;
    try (Stream<Path> files = Files.walk(SOURCES)) {
      writers =
          files
              .filter(f -> f.toString().endsWith(".java"))
              .filter(PaymentTransitionsTest::setsPaymentStatus)
              .map(f -> f.getFileName().toString())
              .sorted()
              .toList();
    }

    assertThat(writers).containsExactly("PaymentStore.java", "PaymentTransitions.java");
    assertThat(Files.readString(SOURCES.resolve("dev/payrelay/ledger/payment/PaymentStore.java")))
        .containsOnlyOnce(".set(PAYMENT_ORDER.STATUS, PaymentStatus.PENDING.name())");
  }

  private static boolean setsPaymentStatus(Path file) {
    try {
      return Files.readString(file).replaceAll("\\s+", "").contains(".set(PAYMENT_ORDER.STATUS,");
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** A new payment put straight into {@code status} (test set-up, not a transition). */
  private static PaymentRow paymentIn(PaymentStatus status) {
    PaymentRow p = payments.create(Payments.newPayment(Money.parse("2.00", "USD"), "c1")).payment();
    dsl.update(PAYMENT_ORDER)
        .set(PAYMENT_ORDER.STATUS, status.name())
        .where(PAYMENT_ORDER.PAYMENT_ID.eq(p.paymentId()))
        .execute();
    return p;
  }

  private static boolean move(PaymentRow p, PaymentTransition move) {
    return dsl.transactionResult(
        cfg ->
            PaymentTransitions.move(cfg.dsl(), p.paymentId(), move, DSL.noCondition(), Map.of()));
  }

  private static int version(PaymentRow p) {
    return dsl.fetchSingle(PAYMENT_ORDER, PAYMENT_ORDER.PAYMENT_ID.eq(p.paymentId())).getVersion();
  }
}

package dev.payrelay.domain;

import static dev.payrelay.domain.PaymentStatus.CLOSED;
import static dev.payrelay.domain.PaymentStatus.EXPIRED;
import static dev.payrelay.domain.PaymentStatus.PAID;
import static dev.payrelay.domain.PaymentStatus.PARTIALLY_REFUNDED;
import static dev.payrelay.domain.PaymentStatus.PENDING;
import static dev.payrelay.domain.PaymentStatus.REFUNDED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The payment lifecycle: PENDING moves once to PAID, CLOSED or EXPIRED; an operator may reopen a
 * CLOSED or EXPIRED payment as PAID; PAID moves only on by refunds, to PARTIALLY_REFUNDED or
 * REFUNDED; REFUNDED never moves.
 */
class PaymentStatusTest {

  /** The allowed (from, to) pairs, written out independently of {@link PaymentTransition}. */
  private static final Map<PaymentStatus, Set<PaymentStatus>> ALLOWED =
      Map.of(
          PENDING, EnumSet.of(PAID, CLOSED, EXPIRED),
          PAID, EnumSet.of(PARTIALLY_REFUNDED, REFUNDED),
          CLOSED, EnumSet.of(PAID),
          EXPIRED, EnumSet.of(PAID),
          PARTIALLY_REFUNDED, EnumSet.of(REFUNDED),
          REFUNDED, EnumSet.noneOf(PaymentStatus.class));

  /** Every (from, to) pair, with whether the move is allowed. */
  static Stream<Arguments> everyTransition() {
    return EnumSet.allOf(PaymentStatus.class).stream()
        .flatMap(
            from ->
                EnumSet.allOf(PaymentStatus.class).stream()
                    .map(to -> arguments(from, to, ALLOWED.get(from).contains(to))));
  }

  @ParameterizedTest(name = "{0} -> {1} allowed: {2}")
  @MethodSource("everyTransition")
  void canMoveTo_allowsExactlyTheTablesMoves(
      PaymentStatus from, PaymentStatus to, boolean allowed) {
    assertThat(from.canMoveTo(to)).isEqualTo(allowed);
  }

  @Test
  void transitionTable_coversAllThirtySixPairs_withExactlyEightAllowed() {
    assertThat(everyTransition()).hasSize(36);
    assertThat(everyTransition().filter(row -> (boolean) row.get()[2])).hasSize(8);
  }

  @ParameterizedTest(name = "{0} final: {1}")
  @CsvSource({
    "PENDING, false",
    "PAID, false",
    "CLOSED, false",
    "EXPIRED, false",
    "PARTIALLY_REFUNDED, false",
    "REFUNDED, true"
  })
  void isFinal_isTrueExactlyForStatesThatAllowNoMove(PaymentStatus status, boolean isFinal) {
    assertThat(status.isFinal()).isEqualTo(isFinal);
    assertThat(EnumSet.allOf(PaymentStatus.class).stream().noneMatch(status::canMoveTo))
        .isEqualTo(isFinal);
  }

  @Test
  void onlyAnOperator_movesAClosedOrExpiredPayment_andOnlyToPaid() {
    for (PaymentStatus closed : EnumSet.of(CLOSED, EXPIRED)) {
      assertThat(PaymentTransition.between(closed, PAID))
          .containsExactly(PaymentTransition.REOPEN_AS_PAID);
    }
    assertThat(PaymentTransition.REOPEN_AS_PAID.by()).isEqualTo(PaymentTransition.By.OPERATOR);
    assertThat(PaymentTransition.CONFIRM.startsFrom(CLOSED)).isFalse();
    assertThat(PaymentTransition.CONFIRM.startsFrom(EXPIRED)).isFalse();
  }

  @Test
  void theChannelAlone_confirmsOnlyAPendingPayment() {
    assertThat(PaymentTransition.CONFIRM.by()).isEqualTo(PaymentTransition.By.CHANNEL);
    assertThat(PaymentTransition.CONFIRM.from()).containsExactly(PENDING);
    assertThat(PaymentTransition.CONFIRM.to()).isEqualTo(PAID);
    assertThat(PaymentTransition.between(PENDING, PAID))
        .containsExactlyInAnyOrder(PaymentTransition.CONFIRM, PaymentTransition.ACCEPT_AS_PAID);
  }

  @Test
  void refunds_moveOnlyAPaidPayment_andNoRefundedPaymentCanBeClosedOrExpired() {
    assertThat(PaymentTransition.between(PAID, PARTIALLY_REFUNDED))
        .containsExactly(PaymentTransition.REFUND_PARTIALLY);
    assertThat(PaymentTransition.between(PAID, REFUNDED))
        .containsExactly(PaymentTransition.REFUND_FULLY);
    assertThat(PaymentTransition.between(PARTIALLY_REFUNDED, REFUNDED))
        .containsExactly(PaymentTransition.REFUND_FULLY);
    for (PaymentStatus refunded : EnumSet.of(PARTIALLY_REFUNDED, REFUNDED)) {
      assertThat(refunded.canMoveTo(CLOSED)).as(refunded + " closed").isFalse();
      assertThat(refunded.canMoveTo(EXPIRED)).as(refunded + " expired").isFalse();
      assertThat(refunded.canMoveTo(PAID)).as(refunded + " back to PAID").isFalse();
    }
  }

  @ParameterizedTest(name = "{0} was paid: {1}, owes entitlements: {2}")
  @CsvSource({
    "PENDING, false, false",
    "PAID, true, true",
    "CLOSED, false, false",
    "EXPIRED, false, false",
    "PARTIALLY_REFUNDED, true, true",
    "REFUNDED, true, false"
  })
  void aRefundedPaymentWasPaid_butAFullyRefundedOneOwesNoEntitlements(
      PaymentStatus status, boolean wasPaid, boolean owes) {
    assertThat(status.wasPaid()).isEqualTo(wasPaid);
    assertThat(status.owesEntitlements()).isEqualTo(owes);
    assertThat(PaymentStatus.paidNames().contains(status.name())).isEqualTo(wasPaid);
    assertThat(PaymentStatus.entitledNames().contains(status.name())).isEqualTo(owes);
  }
}

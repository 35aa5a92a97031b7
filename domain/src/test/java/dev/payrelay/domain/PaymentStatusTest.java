package dev.payrelay.domain;

import static dev.payrelay.domain.PaymentStatus.CLOSED;
import static dev.payrelay.domain.PaymentStatus.EXPIRED;
import static dev.payrelay.domain.PaymentStatus.PAID;
import static dev.payrelay.domain.PaymentStatus.PENDING;
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
 * CLOSED or EXPIRED payment as PAID; PAID never moves.
 */
class PaymentStatusTest {

  /** The allowed (from, to) pairs, written out independently of {@link PaymentTransition}. */
  private static final Map<PaymentStatus, Set<PaymentStatus>> ALLOWED =
      Map.of(
          PENDING, EnumSet.of(PAID, CLOSED, EXPIRED),
          PAID, EnumSet.noneOf(PaymentStatus.class),
          CLOSED, EnumSet.of(PAID),
          EXPIRED, EnumSet.of(PAID));

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
  void transitionTable_coversAllSixteenPairs_withExactlyFiveAllowed() {
    assertThat(everyTransition()).hasSize(16);
    assertThat(everyTransition().filter(row -> (boolean) row.get()[2])).hasSize(5);
  }

  @ParameterizedTest(name = "{0} final: {1}")
  @CsvSource({"PENDING, false", "PAID, true", "CLOSED, false", "EXPIRED, false"})
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
}

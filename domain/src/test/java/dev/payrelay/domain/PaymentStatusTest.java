package dev.payrelay.domain;

import static dev.payrelay.domain.PaymentStatus.CLOSED;
import static dev.payrelay.domain.PaymentStatus.EXPIRED;
import static dev.payrelay.domain.PaymentStatus.PAID;
import static dev.payrelay.domain.PaymentStatus.PENDING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The payment lifecycle: PENDING moves once to PAID, CLOSED or EXPIRED; final states never move.
 */
class PaymentStatusTest {

  private static final Set<PaymentStatus> FROM_PENDING = EnumSet.of(PAID, CLOSED, EXPIRED);

  /** Every (from, to) pair, with whether the move is allowed. */
  static Stream<Arguments> everyTransition() {
    return EnumSet.allOf(PaymentStatus.class).stream()
        .flatMap(
            from ->
                EnumSet.allOf(PaymentStatus.class).stream()
                    .map(to -> arguments(from, to, from == PENDING && FROM_PENDING.contains(to))));
  }

  @ParameterizedTest(name = "{0} -> {1} allowed: {2}")
  @MethodSource("everyTransition")
  void canMoveTo_allowsOnlyPendingToAFinalState(
      PaymentStatus from, PaymentStatus to, boolean allowed) {
    assertThat(from.canMoveTo(to)).isEqualTo(allowed);
  }

  @Test
  void transitionTable_coversAllSixteenPairs_withExactlyThreeAllowed() {
    assertThat(everyTransition()).hasSize(16);
    assertThat(everyTransition().filter(row -> (boolean) row.get()[2])).hasSize(3);
  }

  @ParameterizedTest(name = "{0} final: {1}")
  @CsvSource({"PENDING, false", "PAID, true", "CLOSED, true", "EXPIRED, true"})
  void isFinal_isTrueExactlyForStatesThatAllowNoMove(PaymentStatus status, boolean isFinal) {
    assertThat(status.isFinal()).isEqualTo(isFinal);
    assertThat(EnumSet.allOf(PaymentStatus.class).stream().noneMatch(status::canMoveTo))
        .isEqualTo(isFinal);
  }
}

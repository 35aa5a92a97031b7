package dev.payrelay.domain;

import static dev.payrelay.domain.RefundState.FAILED;
import static dev.payrelay.domain.RefundState.REQUESTED;
import static dev.payrelay.domain.RefundState.SUBMITTED;
import static dev.payrelay.domain.RefundState.SUCCEEDED;
import static dev.payrelay.domain.RefundState.UNKNOWN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The refund lifecycle (issue 28): REQUESTED, SUBMITTED or UNKNOWN end SUCCEEDED or FAILED. */
class RefundStateTest {

  /** The allowed (from, to) pairs, written out independently of {@link RefundTransition}. */
  private static final Map<RefundState, Set<RefundState>> ALLOWED =
      Map.of(
          REQUESTED, EnumSet.of(SUBMITTED, UNKNOWN, SUCCEEDED, FAILED),
          SUBMITTED, EnumSet.of(UNKNOWN, SUCCEEDED, FAILED),
          UNKNOWN, EnumSet.of(SUBMITTED, SUCCEEDED, FAILED),
          SUCCEEDED, EnumSet.noneOf(RefundState.class),
          FAILED, EnumSet.noneOf(RefundState.class));

  static Stream<Arguments> everyTransition() {
    return EnumSet.allOf(RefundState.class).stream()
        .flatMap(
            from ->
                EnumSet.allOf(RefundState.class).stream()
                    .map(to -> arguments(from, to, ALLOWED.get(from).contains(to))));
  }

  @ParameterizedTest(name = "{0} -> {1} allowed: {2}")
  @MethodSource("everyTransition")
  void canMoveTo_allowsExactlyTheTablesMoves(RefundState from, RefundState to, boolean allowed) {
    assertThat(from.canMoveTo(to)).isEqualTo(allowed);
  }

  @Test
  void succeededAndFailed_areFinal_andOnlyFailedFreesItsAmount() {
    assertThat(EnumSet.allOf(RefundState.class).stream().filter(RefundState::isFinal))
        .containsExactlyInAnyOrder(SUCCEEDED, FAILED);
    assertThat(EnumSet.allOf(RefundState.class).stream().filter(s -> !s.holdsAmount()))
        .containsExactly(FAILED);
  }

  @Test
  void refundNumbers_fitEveryChannelsIdempotencyKey() {
    String number = RefundIds.mintNumber();
    assertThat(number).hasSizeLessThanOrEqualTo(RefundIds.MAX_NUMBER_LENGTH);
    // WeChat Pay out_refund_no: [A-Za-z0-9_-|*@], at most 64; Alipay out_request_no: at most 64.
    assertThat(number).matches("[A-Za-z0-9_\\-|*@]{1,64}");
    assertThat(RefundIds.isNumber(number)).isTrue();
    assertThat(RefundIds.isId(RefundIds.mintId())).isTrue();
    assertThat(RefundIds.isId(number)).isFalse();
    assertThat(RefundIds.mintNumber()).isNotEqualTo(number);
  }
}

package dev.payrelay.domain.channel;

import static dev.payrelay.domain.channel.CallbackOutcome.AMOUNT_MISMATCH;
import static dev.payrelay.domain.channel.CallbackOutcome.CONFIRMED;
import static dev.payrelay.domain.channel.CallbackOutcome.CURRENCY_MISMATCH;
import static dev.payrelay.domain.channel.CallbackOutcome.DISPUTED;
import static dev.payrelay.domain.channel.CallbackOutcome.DOUBLE_PAYMENT;
import static dev.payrelay.domain.channel.CallbackOutcome.DUPLICATE;
import static dev.payrelay.domain.channel.CallbackOutcome.MERCHANT_MISMATCH;
import static dev.payrelay.domain.channel.CallbackOutcome.PAID_AFTER_CLOSE;
import static dev.payrelay.domain.channel.CallbackOutcome.REFUNDED;
import static dev.payrelay.domain.channel.CallbackOutcome.STALE_STATUS;
import static dev.payrelay.domain.channel.CallbackOutcome.TXN_CONFLICT;
import static dev.payrelay.domain.channel.CallbackOutcome.UNKNOWN_PAYMENT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Which outcomes let the channel stop retrying, and which record a payment exception. */
class CallbackOutcomeTest {

  private static final boolean ACKNOWLEDGED = true;
  private static final boolean RETRY = false;
  private static final boolean EXCEPTION = true;
  private static final boolean NO_EXCEPTION = false;

  static Stream<Arguments> table() {
    return Stream.of(
        arguments(CONFIRMED, ACKNOWLEDGED, NO_EXCEPTION),
        arguments(DUPLICATE, ACKNOWLEDGED, NO_EXCEPTION),
        arguments(AMOUNT_MISMATCH, ACKNOWLEDGED, EXCEPTION),
        arguments(CURRENCY_MISMATCH, ACKNOWLEDGED, EXCEPTION),
        arguments(MERCHANT_MISMATCH, ACKNOWLEDGED, EXCEPTION),
        arguments(TXN_CONFLICT, ACKNOWLEDGED, EXCEPTION),
        arguments(DOUBLE_PAYMENT, ACKNOWLEDGED, EXCEPTION),
        arguments(PAID_AFTER_CLOSE, ACKNOWLEDGED, EXCEPTION),
        arguments(REFUNDED, ACKNOWLEDGED, EXCEPTION),
        arguments(DISPUTED, ACKNOWLEDGED, EXCEPTION),
        arguments(CallbackOutcome.REFUND_APPLIED, ACKNOWLEDGED, NO_EXCEPTION),
        arguments(CallbackOutcome.REFUND_DUPLICATE, ACKNOWLEDGED, NO_EXCEPTION),
        arguments(CallbackOutcome.REFUND_NOT_REQUESTED, ACKNOWLEDGED, EXCEPTION),
        arguments(CallbackOutcome.REFUND_MISMATCH, ACKNOWLEDGED, EXCEPTION),
        arguments(STALE_STATUS, ACKNOWLEDGED, NO_EXCEPTION),
        arguments(CallbackOutcome.OTHER_CHANNEL, ACKNOWLEDGED, NO_EXCEPTION),
        arguments(CallbackOutcome.OTHER_ACCOUNT, ACKNOWLEDGED, NO_EXCEPTION),
        arguments(CallbackOutcome.NOT_OURS, ACKNOWLEDGED, NO_EXCEPTION),
        arguments(UNKNOWN_PAYMENT, RETRY, NO_EXCEPTION));
  }

  @ParameterizedTest(name = "{0}: acknowledged={1}, exception={2}")
  @MethodSource("table")
  void outcome_isAcknowledgedUnlessUnknown_andRecordsAnExceptionOnlyForDisagreements(
      CallbackOutcome outcome, boolean acknowledged, boolean exception) {
    assertThat(outcome.acknowledged()).isEqualTo(acknowledged);
    assertThat(outcome.isException()).isEqualTo(exception);
  }

  @Test
  void table_coversEveryOutcomeOnce() {
    assertThat(table().map(row -> (CallbackOutcome) row.get()[0]))
        .containsExactlyInAnyOrder(CallbackOutcome.values());
  }

  @Test
  void onlyUnknownPayment_asksTheChannelToRetry() {
    assertThat(Arrays.stream(CallbackOutcome.values()).filter(o -> !o.acknowledged()))
        .containsExactly(UNKNOWN_PAYMENT);
  }
}

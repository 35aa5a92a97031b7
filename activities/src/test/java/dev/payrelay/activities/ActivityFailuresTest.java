package dev.payrelay.activities;

import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.domain.channel.ChannelException;
import dev.payrelay.domain.failure.ChannelFailure;
import dev.payrelay.workflows.activities.ReconciliationFailure;
import io.temporal.failure.ApplicationFailure;
import org.junit.jupiter.api.Test;

/**
 * The failure types the payment and reconciliation activities share: the types workflows and retry
 * policies match on, with their retryability and the channel's message and cause.
 */
class ActivityFailuresTest {

  @Test
  void retryableChannelException_isRetryableChannelUnavailable_withMessageAndCause() {
    ChannelException e = new ChannelException("channel answered 503", true, null);

    ApplicationFailure f = ActivityFailures.channel(e);

    assertThat(f.getType()).isEqualTo("CHANNEL_UNAVAILABLE");
    assertThat(f.isNonRetryable()).isFalse();
    assertThat(f.getOriginalMessage()).isEqualTo("channel answered 503");
    assertThat(f.getCause()).isNotNull();
  }

  @Test
  void refusedChannelException_isNonRetryableChannelRefused() {
    ApplicationFailure f =
        ActivityFailures.channel(new ChannelException("channel answered 400", false, null));

    assertThat(f.getType()).isEqualTo("CHANNEL_REFUSED");
    assertThat(f.isNonRetryable()).isTrue();
    assertThat(f.getOriginalMessage()).isEqualTo("channel answered 400");
  }

  @Test
  void channelFailureNames_areTheReconciliationContractsChannelTypes() {
    // Reconciliation workflows match ReconciliationFailure's names on what ActivityFailures throws.
    assertThat(ChannelFailure.CHANNEL_UNAVAILABLE.name())
        .isEqualTo(ReconciliationFailure.CHANNEL_UNAVAILABLE.name());
    assertThat(ChannelFailure.CHANNEL_REFUSED.name())
        .isEqualTo(ReconciliationFailure.CHANNEL_REFUSED.name());
  }

  @Test
  void paymentNotFound_isNonRetryable_andNamesThePayment() {
    ApplicationFailure f = ActivityFailures.paymentNotFound("pay_1");

    assertThat(f.getType()).isEqualTo("PAYMENT_NOT_FOUND");
    assertThat(f.isNonRetryable()).isTrue();
    assertThat(f.getOriginalMessage()).isEqualTo("no payment pay_1");
  }
}

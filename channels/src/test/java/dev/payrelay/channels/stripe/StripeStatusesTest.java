package dev.payrelay.channels.stripe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.ChannelRefundStatus;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StripeStatusesTest {

  @Test
  void everyDocumentedIntentStatus_hasItsMeaning() {
    Map<String, ChannelPaymentStatus> expected =
        Map.of(
            "requires_payment_method", ChannelPaymentStatus.PENDING,
            "requires_confirmation", ChannelPaymentStatus.PENDING,
            "requires_action", ChannelPaymentStatus.PENDING,
            "processing", ChannelPaymentStatus.PENDING,
            "requires_capture", ChannelPaymentStatus.PENDING,
            "canceled", ChannelPaymentStatus.CLOSED,
            "succeeded", ChannelPaymentStatus.PAID);
    expected.forEach(
        (status, ours) -> assertThat(StripeStatuses.ofIntentStatus(status)).isEqualTo(ours));
    assertThat(StripeStatuses.INTENT_STATUSES).isEqualTo(expected);
  }

  @Test
  void refundStatuses_succeededMovedMoney_failedAndCanceledMovedNone_othersArePending() {
    assertThat(StripeStatuses.ofRefundStatus("succeeded")).isEqualTo(ChannelRefundStatus.SUCCEEDED);
    assertThat(StripeStatuses.ofRefundStatus("failed")).isEqualTo(ChannelRefundStatus.FAILED);
    assertThat(StripeStatuses.ofRefundStatus("canceled")).isEqualTo(ChannelRefundStatus.FAILED);
    assertThat(StripeStatuses.ofRefundStatus("pending")).isEqualTo(ChannelRefundStatus.PENDING);
    assertThat(StripeStatuses.ofRefundStatus("requires_action"))
        .isEqualTo(ChannelRefundStatus.PENDING);
    assertThat(StripeStatuses.ofRefundStatus("reversed")).isEqualTo(ChannelRefundStatus.PENDING);
    assertThat(StripeStatuses.ofRefundStatus(null)).isEqualTo(ChannelRefundStatus.PENDING);
  }

  @Test
  void undocumentedIntentStatus_isUnknown() {
    assertThat(StripeStatuses.ofIntentStatus("requires_reauthorization"))
        .isEqualTo(ChannelPaymentStatus.UNKNOWN);
    assertThat(StripeStatuses.ofIntentStatus("Succeeded")).isEqualTo(ChannelPaymentStatus.UNKNOWN);
    assertThat(StripeStatuses.ofIntentStatus(null)).isEqualTo(ChannelPaymentStatus.UNKNOWN);
  }

  @Test
  void eventTypes_mapToPaidPendingClosedRefundedDisputed_andOthersToUnknown() {
    assertThat(StripeStatuses.ofEventType("payment_intent.succeeded"))
        .isEqualTo(ChannelPaymentStatus.PAID);
    for (String pending :
        new String[] {
          "payment_intent.created",
          "payment_intent.processing",
          "payment_intent.requires_action",
          "payment_intent.requires_payment_method",
          "payment_intent.payment_failed",
          "payment_intent.amount_capturable_updated"
        }) {
      assertThat(StripeStatuses.ofEventType(pending)).isEqualTo(ChannelPaymentStatus.PENDING);
    }
    assertThat(StripeStatuses.ofEventType("payment_intent.canceled"))
        .isEqualTo(ChannelPaymentStatus.CLOSED);
    assertThat(StripeStatuses.ofEventType("charge.refunded"))
        .isEqualTo(ChannelPaymentStatus.REFUNDED);
    assertThat(StripeStatuses.ofEventType("charge.dispute.created"))
        .isEqualTo(ChannelPaymentStatus.DISPUTED);
    assertThat(StripeStatuses.ofEventType("payment_intent.partially_funded"))
        .isEqualTo(ChannelPaymentStatus.UNKNOWN);
    assertThat(StripeStatuses.ofEventType("customer.created"))
        .isEqualTo(ChannelPaymentStatus.UNKNOWN);
    assertThat(StripeStatuses.ofEventType(null)).isEqualTo(ChannelPaymentStatus.UNKNOWN);
  }
}

package dev.payrelay.domain.event;

import static dev.payrelay.domain.event.EventType.PAYMENT_CLOSED;
import static dev.payrelay.domain.event.EventType.PAYMENT_CONFIRMED;
import static dev.payrelay.domain.event.EventType.PAYMENT_CREATED;
import static dev.payrelay.domain.event.EventType.PAYMENT_EXCEPTION_RECORDED;
import static dev.payrelay.domain.event.EventType.PAYMENT_REFUNDED;
import static dev.payrelay.domain.event.EventType.REFUND_REQUESTED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

/** Event types by wire name (event_type column, AMQP type) and routing key. */
class EventTypeTest {

  @ParameterizedTest(name = "{0}")
  @EnumSource(EventType.class)
  void fromWireName_returnsTheTypeWhoseWireNameItIs(EventType type) {
    assertThat(EventType.fromWireName(type.wireName())).isSameAs(type);
  }

  static Stream<Arguments> wireTable() {
    return Stream.of(
        arguments(PAYMENT_CREATED, "PaymentCreated", "payment.created"),
        arguments(PAYMENT_CONFIRMED, "PaymentConfirmed", "payment.confirmed"),
        arguments(
            PAYMENT_EXCEPTION_RECORDED, "PaymentExceptionRecorded", "payment.exception_recorded"),
        arguments(PAYMENT_CLOSED, "PaymentClosed", "payment.closed"),
        arguments(REFUND_REQUESTED, "RefundRequested", "payment.refund_requested"),
        arguments(PAYMENT_REFUNDED, "PaymentRefunded", "payment.refunded"));
  }

  @ParameterizedTest(name = "{0} = {1} on {2}")
  @MethodSource("wireTable")
  void wireNameAndRoutingKey_areTheDocumentedOnes(
      EventType type, String wireName, String routingKey) {
    assertThat(type.wireName()).isEqualTo(wireName);
    assertThat(type.routingKey()).isEqualTo(routingKey);
    assertThat(EventType.fromWireName(wireName)).isSameAs(type);
  }

  @Test
  void wireTable_coversEveryEventType() {
    // Wire names and routing keys are a published contract: a new type must be added here too.
    assertThat(wireTable().map(row -> (EventType) row.get()[0]))
        .containsExactlyInAnyOrder(EventType.values());
  }

  @Test
  void routingKeys_areDistinct() {
    assertThat(Arrays.stream(EventType.values()).map(EventType::routingKey))
        .doesNotHaveDuplicates();
  }

  @Test
  void wireNames_areDistinct() {
    assertThat(Arrays.stream(EventType.values()).map(EventType::wireName)).doesNotHaveDuplicates();
  }

  @ParameterizedTest(name = "\"{0}\"")
  @NullAndEmptySource
  @ValueSource(
      strings = {
        "PaymentRefund",
        "paymentCreated",
        "PAYMENT_CREATED",
        "payment.created",
        " PaymentCreated",
        "PaymentConfirmed "
      })
  void fromWireName_rejectsNamesPayrelayDoesNotKnow(String wireName) {
    assertThatThrownBy(() -> EventType.fromWireName(wireName))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unknown event type: " + wireName);
  }
}

package dev.payrelay.channels.alipay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.VerifiedCallback;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 14: every {@code payrelay dev} starts a new simulator while the database keeps the older
 * payments, so a simulator must never mint a {@code trade_no} or {@code notify_id} an earlier
 * simulator already gave out.
 */
class AlipaySimulatorIdsTest {

  /** The first payment's trade_no and the notify_ids of its payment and refund notifications. */
  private static List<String> firstPaymentIds() throws Exception {
    try (AlipayFixture fx = new AlipayFixture()) {
      VerifiedCallback paid = fx.channel.verifyCallback(fx.paidNotification("pay-1", "10.00"));
      fx.simulator.refund("pay-1", "r-1", Money.ofMinor(300, "CNY"));
      VerifiedCallback refund = fx.channel.verifyCallback(fx.receiver.next());
      return List.of(paid.channelTxnId(), paid.notificationId(), refund.notificationId());
    }
  }

  @Test
  void twoSimulatorsOneAfterTheOther_mintDifferentIdsForTheirFirstPayment() throws Exception {
    String today =
        DateTimeFormatter.ofPattern("yyyyMMdd").format(Instant.now().atZone(AlipayTrades.BEIJING));

    List<String> first = firstPaymentIds();
    List<String> second = firstPaymentIds();

    assertThat(first.get(0)).matches("[0-9]{28}").startsWith(today);
    assertThat(second.get(0)).matches("[0-9]{28}").startsWith(today);
    assertThat(first.get(1)).isNotEqualTo(first.get(2));
    for (int i = 0; i < first.size(); i++) {
      assertThat(second.get(i)).isNotEqualTo(first.get(i));
    }
  }
}

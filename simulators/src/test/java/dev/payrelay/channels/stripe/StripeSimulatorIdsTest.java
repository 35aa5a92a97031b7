package dev.payrelay.channels.stripe;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.ChannelPaymentRequest;
import dev.payrelay.simulators.stripe.SimulatedStripe;
import dev.payrelay.simulators.stripe.StripeWebhookEvent;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 14: every {@code payrelay dev} starts a new simulator while the database keeps the older
 * payments, so a simulator must never mint an id an earlier simulator already gave out.
 */
class StripeSimulatorIdsTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The first payment's intent, charge and event ids in a fresh simulator. */
  private static List<String> firstPaymentIds() throws Exception {
    try (StripeFixture fx = new StripeFixture(10)) {
      fx.channel.register(
          new ChannelPaymentRequest(
              "p-1",
              StripeFixture.ACCOUNT,
              Money.ofMinor(1050, "USD"),
              "course p-1",
              Instant.now().plusSeconds(900)));
      String intentId = fx.simulator.intentId("p-1");
      StripeWebhookEvent paid = fx.simulator.pay(intentId);
      String chargeId = JSON.readTree(paid.body()).at("/data/object/latest_charge").asText();
      return List.of(intentId, chargeId, paid.eventId());
    }
  }

  @Test
  void twoSimulatorsOneAfterTheOther_mintDifferentIdsForTheirFirstPayment() throws Exception {
    List<String> first = firstPaymentIds();
    List<String> second = firstPaymentIds();

    assertThat(first.get(0)).matches("pi_[0-9A-Za-z]{24}");
    assertThat(first.get(1)).matches("ch_[0-9A-Za-z]{24}");
    assertThat(first.get(2)).matches("evt_[0-9A-Za-z]{24}");
    for (int i = 0; i < first.size(); i++) {
      assertThat(second.get(i)).isNotEqualTo(first.get(i)).hasSameSizeAs(first.get(i));
    }
  }

  /** Refund, dispute and balance transaction ids of one paid, refunded and disputed intent. */
  private static List<String> refundDisputeAndBalanceIds() {
    SimulatedStripe stripe = new SimulatedStripe(JSON, Clock.systemUTC());
    String intentId =
        stripe.createIntent(Map.of("amount", "1050", "currency", "usd")).get("id").asText();
    stripe.succeed(intentId);
    stripe.refund(intentId);
    List<String> ids = new ArrayList<>();
    ids.add(stripe.dispute(intentId).get("id").asText());
    for (JsonNode txn :
        stripe.balanceTransactions(0, Long.MAX_VALUE, 10, null, true, false).get("data")) {
      ids.add(txn.get("id").asText());
      ids.add(txn.at("/source/id").asText());
    }
    return ids;
  }

  @Test
  void twoSimulatorsOneAfterTheOther_mintDifferentRefundDisputeAndBalanceTransactionIds() {
    List<String> first = refundDisputeAndBalanceIds();
    List<String> second = refundDisputeAndBalanceIds();

    // Newest first: the refund's line, then the charge's.
    assertThat(first)
        .hasSize(5)
        .satisfies(ids -> assertThat(ids.get(0)).matches("dp_[0-9A-Za-z]{24}"))
        .satisfies(ids -> assertThat(ids.get(1)).matches("txn_[0-9A-Za-z]{24}"))
        .satisfies(ids -> assertThat(ids.get(2)).matches("re_[0-9A-Za-z]{24}"))
        .satisfies(ids -> assertThat(ids.get(4)).matches("ch_[0-9A-Za-z]{24}"))
        .doesNotHaveDuplicates();
    assertThat(second).doesNotContainAnyElementsOf(first);
  }
}

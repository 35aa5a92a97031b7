package dev.payrelay.channels.wechatpay;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.wechat.pay.java.core.cipher.AeadAesCipher;
import dev.payrelay.simulators.wechatpay.SimulatedWechatNotification;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 14: every {@code payrelay dev} starts a new simulator while the database keeps the older
 * payments, so a simulator must never mint a {@code transaction_id}, {@code refund_id} or
 * notification {@code id} an earlier simulator already gave out.
 */
class WechatPaySimulatorIdsTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The first payment's transaction_id, its refund's refund_id, and both notification ids. */
  private static List<String> firstPaymentIds() throws Exception {
    try (WechatPayFixture fx = new WechatPayFixture()) {
      fx.channel.register(fx.payment("pay-1", "10.00"));
      SimulatedWechatNotification paid = fx.simulator.pay("pay-1");
      SimulatedWechatNotification refund = fx.simulator.refund("pay-1", "rf-1", 300);
      JsonNode refundResource = decrypted(refund);
      return List.of(
          fx.simulator.transactionId("pay-1").orElseThrow(),
          refundResource.get("refund_id").asText(),
          paid.id(),
          refund.id());
    }
  }

  private static JsonNode decrypted(SimulatedWechatNotification n) throws Exception {
    JsonNode resource = JSON.readTree(n.rawBody()).get("resource");
    String plain =
        new AeadAesCipher(WechatPayFixture.API_V3_KEY.getBytes(StandardCharsets.UTF_8))
            .decrypt(
                resource.get("associated_data").asText().getBytes(StandardCharsets.UTF_8),
                resource.get("nonce").asText().getBytes(StandardCharsets.UTF_8),
                Base64.getDecoder().decode(resource.get("ciphertext").asText()));
    return JSON.readTree(plain);
  }

  @Test
  void twoSimulatorsOneAfterTheOther_mintDifferentIdsForTheirFirstPayment() throws Exception {
    List<String> first = firstPaymentIds();
    List<String> second = firstPaymentIds();

    assertThat(first.get(0)).matches("4200[0-9]{24}");
    assertThat(first.get(1)).matches("50[0-9]{27}");
    for (int i = 0; i < first.size(); i++) {
      assertThat(second.get(i)).isNotEqualTo(first.get(i));
    }
  }
}

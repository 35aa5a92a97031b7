package dev.payrelay.devstack;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpResponse;

/**
 * The {@link Demo}'s buyer and refund witness for the channels whose simulators it reaches over
 * HTTP alone, so that it also works against a {@code payrelay dev} running elsewhere: the sandbox
 * (pay endpoint, refund query) and the Alipay simulator (the {@code qr_code} URL's buyer endpoint
 * and trade state).
 */
final class DemoSimulators {

  private final DemoApi api;
  private final URI sandbox;

  /**
   * @param sandbox the sandbox's base URL ({@code PAYRELAY_SANDBOX_URL})
   */
  DemoSimulators(DemoApi api, URI sandbox) {
    this.api = api;
    this.sandbox = sandbox;
  }

  /**
   * The buyer pays at the sandbox: {@code POST /sandbox/v1/payments/{id}/pay}. A {@link
   * Demo.Buyer}.
   */
  String payAtSandbox(String paymentId, String payUrl) throws Exception {
    JsonNode pay =
        api.post(sandbox.resolve("/sandbox/v1/payments/" + paymentId + "/pay"), "{}", null);
    return "sandbox paid it: channel_txn_id=%s, callback answered HTTP %s"
        .formatted(pay.path("channel_txn_id").asText(), pay.path("callback_status").asText());
  }

  /**
   * The Alipay simulator's buyer scans and pays: {@code POST <qr_code>/pay}, plain text state. A
   * {@link Demo.Buyer}.
   */
  String payAtAlipay(String paymentId, String payUrl) throws Exception {
    URI pay = URI.create(payUrl + "/pay");
    String state = DemoApi.body("POST " + pay, api.postChannel(pay)).strip();
    return "alipay simulator paid it: trade " + state + ", notification sent";
  }

  /**
   * The sandbox's refund query, {@code GET /sandbox/v1/payments/{id}/refunds/{refundNo}}, as an
   * operator would ask the channel (the sandbox counts it among that number's queries). A {@link
   * Demo.RefundWitness}.
   */
  String sandboxRefunded(String paymentId, String payUrl, String refundNo) throws Exception {
    HttpResponse<String> r =
        api.getChannel(
            sandbox.resolve("/sandbox/v1/payments/" + paymentId + "/refunds/" + refundNo));
    if (r.statusCode() == 404) {
      return null;
    }
    JsonNode refund = DemoApi.json("GET " + r.uri(), r);
    return "SUCCEEDED".equals(refund.path("status").asText())
        ? "sandbox refunded it: refund_id=%s refund_no=%s status=SUCCEEDED"
            .formatted(refund.path("refund_id").asText(), refundNo)
        : null;
  }

  /**
   * The Alipay simulator's trade state at the pay URL ({@code GET <qr_code>}, plain text): a trade
   * refunded in full is {@code TRADE_CLOSED}. A {@link Demo.RefundWitness}.
   */
  String alipayRefunded(String paymentId, String payUrl, String refundNo) throws Exception {
    String state = DemoApi.body("GET " + payUrl, api.getChannel(URI.create(payUrl))).strip();
    return "TRADE_CLOSED".equals(state)
        ? "alipay simulator refunded it: trade TRADE_CLOSED, refunded in full"
        : null;
  }
}

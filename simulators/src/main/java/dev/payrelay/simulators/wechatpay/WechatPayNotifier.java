package dev.payrelay.simulators.wechatpay;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.wechat.pay.java.core.util.NonceUtil;
import dev.payrelay.channels.wechatpay.WechatPayBillFormat;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Builds and posts the simulator's notifications as WeChat Pay does ("支付通知", "退款结果通知"): the
 * resource AES-256-GCM encrypted with the APIv3 key into a JSON envelope, the envelope signed with
 * the platform key in {@code Wechatpay-*} headers, timestamped by the clock. Each notification is
 * posted once and the answer returned; the last one of each order is kept for a re-send.
 */
final class WechatPayNotifier {

  private final ObjectMapper json;
  private final Clock clock;
  private final HttpClient http;
  private final PlatformKeys keys;
  private final Map<String, SimulatedWechatNotification> lastSent = new ConcurrentHashMap<>();

  WechatPayNotifier(ObjectMapper json, Clock clock, HttpClient http, PlatformKeys keys) {
    this.json = json;
    this.clock = clock;
    this.http = http;
    this.keys = keys;
  }

  /**
   * A signed notification, not posted; kept as the last of the order the resource's {@code
   * out_trade_no} names.
   *
   * @param originalType the resource's {@code original_type}, also its {@code associated_data}
   */
  SimulatedWechatNotification build(
      String eventType, String originalType, String summary, ObjectNode resource) {
    String nonce = NonceUtil.createNonce(12);
    String ciphertext = keys.encrypt(originalType, nonce, resource.toString());
    ObjectNode envelope = json.createObjectNode();
    String id = UUID.randomUUID().toString();
    envelope.put("id", id);
    envelope.put("create_time", WechatPayBillFormat.rfc3339(clock.instant()));
    envelope.put("resource_type", "encrypt-resource");
    envelope.put("event_type", eventType);
    envelope.put("summary", summary);
    ObjectNode r = envelope.putObject("resource");
    r.put("original_type", originalType);
    r.put("algorithm", "AEAD_AES_256_GCM");
    r.put("ciphertext", ciphertext);
    r.put("associated_data", originalType);
    r.put("nonce", nonce);
    String body = envelope.toString();
    Map<String, String> headers = new LinkedHashMap<>(keys.signatureHeaders(clock.instant(), body));
    headers.put("Content-Type", "application/json");
    SimulatedWechatNotification built =
        new SimulatedWechatNotification(id, headers, body.getBytes(StandardCharsets.UTF_8), -1, "");
    String outTradeNo = resource.path("out_trade_no").asText(null);
    if (outTradeNo != null) {
      lastSent.put(outTradeNo, built);
    }
    return built;
  }

  /** The last notification built for the order, if any. */
  Optional<SimulatedWechatNotification> last(String outTradeNo) {
    return Optional.ofNullable(lastSent.get(outTradeNo));
  }

  /** Posts {@code n} to {@code url} with its headers; the answer, or -1 and the failure. */
  SimulatedWechatNotification post(String url, SimulatedWechatNotification n) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(url))
            .timeout(Duration.ofSeconds(5))
            .POST(HttpRequest.BodyPublishers.ofByteArray(n.rawBody()));
    n.headers().forEach(b::header);
    try {
      HttpResponse<String> answer = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
      return new SimulatedWechatNotification(
          n.id(), n.headers(), n.rawBody(), answer.statusCode(), answer.body());
    } catch (IOException e) {
      return new SimulatedWechatNotification(n.id(), n.headers(), n.rawBody(), -1, e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new SimulatedWechatNotification(n.id(), n.headers(), n.rawBody(), -1, e.toString());
    }
  }
}

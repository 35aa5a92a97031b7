package dev.payrelay.channels.alipay;

import com.alipay.api.internal.util.AlipaySignature;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.CallbackRequest;
import dev.payrelay.domain.channel.ChannelPaymentRequest;
import dev.payrelay.simulators.RsaKeyPair;
import dev.payrelay.simulators.alipay.AlipaySimulator;
import dev.payrelay.simulators.alipay.AlipaySimulatorConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A running simulator, a {@link NotifyReceiver} standing in for payrelay's webhook, and an {@link
 * AlipayChannel} pointed at the simulator's gateway; the app's key pair and Alipay's key pair are
 * generated here, once per JVM, and differ. Close it after each test.
 */
public final class AlipayFixture implements AutoCloseable {

  static final String APP_ID = "2021000000000001";
  static final String SELLER_ID = "2088000000000001";
  static final RsaKeyPair APP_KEYS = RsaKeyPair.generate();
  static final RsaKeyPair ALIPAY_KEYS = RsaKeyPair.generate();

  final HttpClient http = HttpClient.newHttpClient();
  public final NotifyReceiver receiver;
  public final AlipaySimulator simulator;
  public final AlipayChannel channel;
  final Clock clock;

  AlipayFixture(Clock clock) throws Exception {
    this.clock = clock;
    receiver = new NotifyReceiver();
    simulator =
        new AlipaySimulator(
            new AlipaySimulatorConfig(
                "127.0.0.1", 0, APP_ID, APP_KEYS.publicKey(), ALIPAY_KEYS.privateKey(), SELLER_ID),
            clock,
            http);
    simulator.start();
    channel = channelAt(simulator.gatewayUrl());
  }

  AlipayFixture() throws Exception {
    this(Clock.systemUTC());
  }

  /** An adapter with the test app's keys talking to {@code gateway}. */
  AlipayChannel channelAt(URI gateway) {
    return channel(gateway, APP_KEYS.privateKey());
  }

  /** An adapter signing its requests with {@code appPrivateKey}. */
  public AlipayChannel channel(URI gateway, String appPrivateKey) {
    return channel(gateway, appPrivateKey, Duration.ofSeconds(5));
  }

  /** An adapter with the test app's keys whose gateway calls give up after {@code readTimeout}. */
  AlipayChannel channelWithReadTimeout(Duration readTimeout) {
    return channel(simulator.gatewayUrl(), APP_KEYS.privateKey(), readTimeout);
  }

  private AlipayChannel channel(URI gateway, String appPrivateKey, Duration readTimeout) {
    return new AlipayChannel(
        new AlipayChannelConfig(
            gateway,
            APP_ID,
            appPrivateKey,
            ALIPAY_KEYS.publicKey(),
            receiver.url(),
            Duration.ofSeconds(2),
            readTimeout),
        http);
  }

  /** A payment of {@code yuan} CNY for this app, payable for an hour of the fixture's clock. */
  ChannelPaymentRequest payment(String paymentId, String yuan) {
    return new ChannelPaymentRequest(
        paymentId,
        APP_ID,
        Money.parse(yuan, "CNY"),
        "课程 course " + paymentId,
        clock.instant().plus(Duration.ofHours(1)));
  }

  /** Registers {@code paymentId}, the buyer pays, and the notification as the webhook got it. */
  public CallbackRequest paidNotification(String paymentId, String yuan) throws Exception {
    channel.register(payment(paymentId, yuan));
    simulator.pay(paymentId);
    return receiver.next();
  }

  /**
   * A notification body built here and signed with Alipay's test key the way Alipay signs (SDK's
   * sign-check content, RSA2): for fields the simulator never sends, e.g. a malformed amount.
   */
  static byte[] signedBody(Map<String, String> fields, Charset charset) throws Exception {
    Map<String, String> all = new LinkedHashMap<>(fields);
    all.putIfAbsent("charset", charset.name().toLowerCase());
    all.put("sign_type", "RSA2");
    String content = AlipaySignature.getSignCheckContentV1(new HashMap<>(all));
    all.put(
        "sign", AlipaySignature.rsaSign(content, ALIPAY_KEYS.privateKey(), charset.name(), "RSA2"));
    return AlipayForm.encode(all, charset).getBytes(StandardCharsets.US_ASCII);
  }

  /** The fields of a TRADE_SUCCESS notification of 10.50 CNY for payment p-1, to vary in tests. */
  static Map<String, String> paidFields() {
    Map<String, String> f = new LinkedHashMap<>();
    f.put("notify_id", "n-1");
    f.put("notify_type", "trade_status_sync");
    f.put("notify_time", "2026-11-30 10:00:00");
    f.put("app_id", APP_ID);
    f.put("version", "1.0");
    f.put("out_trade_no", "p-1");
    f.put("trade_no", "2026113022001400000001");
    f.put("trade_status", "TRADE_SUCCESS");
    f.put("total_amount", "10.50");
    return f;
  }

  static CallbackRequest request(byte[] body) {
    return new CallbackRequest(
        Map.of("Content-Type", "application/x-www-form-urlencoded"), body, Instant.now());
  }

  @Override
  public void close() {
    simulator.close();
    receiver.close();
  }
}

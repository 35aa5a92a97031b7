package dev.payrelay.tools.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payrelay.channels.sandbox.SandboxNotification;
import dev.payrelay.channels.sandbox.SandboxSignature;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What the benchmark sends payrelay: payments through {@code POST /v1/payments}, and the sandbox
 * channel's signed PAID callbacks for them straight to the webhook, signed as {@link
 * SandboxSignature} describes. Every payment is 19.99 USD ({@value #AMOUNT_MINOR} minor units) for
 * one course. Thread-safe.
 */
final class PayrelayClient {

  static final long AMOUNT_MINOR = 1999;
  static final String AMOUNT = "19.99";
  static final String CURRENCY = "USD";

  /** Courses per payment: entitlements expected per payment. */
  static final int COURSES = 1;

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  private final BenchTarget target;
  private final SandboxSignature signer;
  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  PayrelayClient(BenchTarget target) {
    this.target = target;
    this.signer =
        new SandboxSignature(
            target.sandboxSecret(), SandboxSignature.DEFAULT_TOLERANCE, Clock.systemUTC());
  }

  /**
   * Creates a sandbox payment of tenant {@code bench} for order {@code orderId}.
   *
   * @return its payment id
   * @throws IOException for any answer but 201 (the message carries it)
   */
  String create(String orderId) throws IOException, InterruptedException {
    String body =
        JSON.writeValueAsString(
            Map.of(
                "tenantId",
                "bench",
                "orderId",
                orderId,
                "userId",
                "bench-" + orderId,
                "amountMinor",
                AMOUNT_MINOR,
                "currency",
                CURRENCY,
                "courseIds",
                List.of("course-bench"),
                "channel",
                "sandbox"));
    HttpRequest.Builder request =
        HttpRequest.newBuilder(target.api().resolve("/v1/payments"))
            .timeout(TIMEOUT)
            .header("Content-Type", "application/json")
            .header("Idempotency-Key", orderId)
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (target.apiKey() != null) {
      request.header("Authorization", "Bearer " + target.apiKey());
    }
    HttpResponse<String> r = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 201) {
      throw new IOException("POST /v1/payments answered " + r.statusCode() + ": " + r.body());
    }
    return JSON.readTree(r.body()).path("payment").path("paymentId").asText();
  }

  /**
   * Posts the sandbox's signed PAID callback for {@code paymentId}, as its simulator would.
   *
   * @throws IOException for a non-2xx answer
   */
  void paid(String paymentId) throws IOException, InterruptedException {
    byte[] body = paidBody(target.merchantId(), paymentId);
    HttpRequest.Builder request =
        HttpRequest.newBuilder(target.webhook())
            .timeout(TIMEOUT)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    signer.headersFor(body).forEach(request::header);
    HttpResponse<String> r = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() / 100 != 2) {
      throw new IOException("callback answered " + r.statusCode() + ": " + r.body());
    }
  }

  /**
   * The body of the sandbox's PAID callback for {@code paymentId} of merchant {@code merchantId},
   * sent now: notification {@code ntf_bench_<id>}, transaction {@code sbx_bench_<id>}, {@value
   * #AMOUNT} {@value #CURRENCY}.
   */
  static byte[] paidBody(String merchantId, String paymentId) {
    return new SandboxNotification(
            "ntf_bench_" + paymentId,
            merchantId,
            paymentId,
            "sbx_bench_" + paymentId,
            AMOUNT,
            CURRENCY,
            "PAID",
            Instant.now())
        .toJson();
  }
}

package dev.payrelay.channels.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payrelay.simulators.sandbox.SandboxSimulator;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;

/**
 * A running simulator, a {@link CallbackReceiver} standing in for payrelay's webhook, and a {@link
 * SandboxChannel} pointed at the simulator, all on 127.0.0.1. Close it after each test.
 */
public final class SandboxFixture implements AutoCloseable {

  final HttpClient http = HttpClient.newHttpClient();
  final ObjectMapper mapper = new ObjectMapper();
  public final CallbackReceiver receiver;
  public final SandboxSimulator simulator;
  public final SandboxChannel channel;

  public SandboxFixture(Clock simulatorClock) throws Exception {
    receiver = new CallbackReceiver();
    simulator =
        new SandboxSimulator(SandboxChannelIntegrationTest.quickRetries(), simulatorClock, http);
    simulator.start();
    channel = channelAt(simulator.baseUrl(), Duration.ofSeconds(2));
  }

  /** A channel with the test merchant and secret at {@code baseUrl}. */
  public SandboxChannel channelAt(URI baseUrl, Duration requestTimeout) {
    return new SandboxChannel(
        new SandboxChannelConfig(
            baseUrl,
            SandboxChannelIntegrationTest.MERCHANT,
            SandboxChannelIntegrationTest.SECRET,
            receiver.url(),
            SandboxSignature.DEFAULT_TOLERANCE,
            requestTimeout),
        Clock.systemUTC(),
        http);
  }

  /** The buyer pays: POST .../pay, which must answer {@code expectedStatus}. */
  public JsonNode pay(String paymentId, int expectedStatus) throws Exception {
    return send("POST", "/sandbox/v1/payments/" + paymentId + "/pay", "", expectedStatus).body();
  }

  /** A raw call to the simulator with a JSON body (or none when null). */
  Response send(String method, String path, String json, int expectedStatus) throws Exception {
    HttpRequest.BodyPublisher body =
        json == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(json);
    return send(
        HttpRequest.newBuilder(URI.create(simulator.baseUrl() + path))
            .header("Content-Type", "application/json")
            .method(method, body),
        expectedStatus);
  }

  /** Sends a prepared request (with a 5 s timeout) and checks its status. */
  Response send(HttpRequest.Builder request, int expectedStatus) throws Exception {
    HttpResponse<byte[]> response =
        http.send(
            request.timeout(Duration.ofSeconds(5)).build(),
            HttpResponse.BodyHandlers.ofByteArray());
    assertThat(response.statusCode())
        .as("%s %s", response.request().method(), response.uri())
        .isEqualTo(expectedStatus);
    byte[] bytes = response.body();
    return new Response(response, bytes.length == 0 ? null : mapper.readTree(bytes));
  }

  /** A raw answer and its JSON body (null if empty). */
  record Response(HttpResponse<byte[]> http, JsonNode body) {}

  @Override
  public void close() {
    simulator.close();
    receiver.close();
  }
}

package dev.payrelay.tools.soak;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payrelay.cli.RetryingHttp;
import dev.payrelay.domain.channel.ChannelException;
import dev.payrelay.domain.channel.PaymentChannel;
import dev.payrelay.domain.channel.StatementLine;
import dev.payrelay.domain.channel.StatementPage;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the soak asks the sandbox child about refunds, directly (the sandbox is the channel, never
 * behind a fault proxy): a payment's refund behaviour ({@code POST /sandbox/v1/admin/refund-mode}),
 * the submits it received per refund number ({@code GET
 * /sandbox/v1/admin/refunds/{refundNo}/calls}) and the refunds it made, as its statement lists them
 * (through payrelay's own sandbox adapter, {@link PaymentChannel#statement}).
 */
final class SoakSandbox {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);

  private final URI sandbox;
  private final PaymentChannel channel;
  private final RetryingHttp http = new RetryingHttp(Duration.ofSeconds(30));

  /** The sandbox at {@code sandbox}, its statement read through {@code channel}. */
  SoakSandbox(URI sandbox, PaymentChannel channel) {
    this.sandbox = sandbox;
    this.channel = channel;
  }

  /**
   * Sets {@code paymentId}'s refund mode: {@code mode} holds the fields of {@code POST
   * /sandbox/v1/admin/refund-mode} other than {@code payment_id}.
   *
   * @return whether the sandbox took it
   */
  boolean setMode(String paymentId, Map<String, Object> mode) {
    Map<String, Object> body = new LinkedHashMap<>(mode);
    body.put("payment_id", paymentId);
    try {
      return http.send(
              RetryingHttp.post(
                      sandbox.resolve("/sandbox/v1/admin/refund-mode"),
                      JSON.writeValueAsString(body),
                      CALL_TIMEOUT)
                  .build())
          .isPresent();
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("refund mode " + mode + " is not JSON", e);
    }
  }

  /**
   * How many submits of {@code refundNo} reached the sandbox.
   *
   * @return the count, or empty when the sandbox did not answer
   */
  Optional<Integer> submits(String refundNo) {
    HttpRequest get =
        HttpRequest.newBuilder(sandbox.resolve("/sandbox/v1/admin/refunds/" + refundNo + "/calls"))
            .timeout(CALL_TIMEOUT)
            .GET()
            .build();
    Optional<HttpResponse<String>> answer = http.send(get);
    if (answer.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(JSON.readTree(answer.get().body()).path("submits").asInt());
    } catch (JsonProcessingException e) {
      return Optional.empty();
    }
  }

  /**
   * Every REFUND line of the sandbox's statements from {@code since}'s statement day to today's:
   * the refunds it made SUCCEEDED, each with our refund number when it has one.
   *
   * @throws ChannelException when a page cannot be read
   */
  List<StatementLine> refunds(Instant since) throws ChannelException {
    List<StatementLine> refunds = new ArrayList<>();
    LocalDate today = LocalDate.now(channel.statementZone());
    for (LocalDate day = LocalDate.ofInstant(since, channel.statementZone());
        !day.isAfter(today);
        day = day.plusDays(1)) {
      String token = null;
      do {
        StatementPage page = channel.statement(day, token);
        page.lines().stream().filter(StatementLine::isRefund).forEach(refunds::add);
        token = page.nextPageToken();
      } while (token != null);
    }
    return refunds;
  }
}

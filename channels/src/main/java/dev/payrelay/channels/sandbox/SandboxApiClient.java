package dev.payrelay.channels.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.ChannelException;
import dev.payrelay.domain.channel.ChannelPaymentRequest;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.ChannelQueryResult;
import dev.payrelay.domain.channel.ChannelRegistration;
import dev.payrelay.domain.channel.StatementPage;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.LocalDate;
import java.util.function.Function;

/**
 * The outbound half of {@link SandboxChannel}: register, query, close and statement calls to the
 * sandbox API, with the answers read into SPI records. Errors follow {@link SandboxHttp}'s
 * taxonomy; an answer that is not the documented shape is a non-retryable ChannelException.
 *
 * <p>Every call carries an {@code Idempotency-Key} derived from what it is about, never from the
 * attempt, so a retry (by us or by a Temporal activity) sends the same key: {@code
 * register:{paymentId}}, {@code query:{paymentId}}, {@code close:{paymentId}}, {@code
 * statement:{yyyy-MM-dd}:{pageToken}} (empty token for the first page).
 */
final class SandboxApiClient {

  private final SandboxHttp http;
  private final SandboxJson json;
  private final SandboxStatementReader statements;
  private final URI notifyUrl;

  SandboxApiClient(SandboxHttp http, SandboxJson json, URI notifyUrl) {
    this.http = http;
    this.json = json;
    this.statements = new SandboxStatementReader(json);
    this.notifyUrl = notifyUrl;
  }

  /** See {@link SandboxChannel#register}. */
  ChannelRegistration register(ChannelPaymentRequest request) throws ChannelException {
    ObjectNode body = json.newObject();
    body.put("payment_id", request.paymentId());
    body.put("merchant_id", request.merchantId());
    body.put("amount", request.amount().toDecimalString());
    body.put("currency", request.amount().currencyCode());
    body.put("description", request.description());
    body.put("expires_at", request.expiresAt().toString());
    body.put("notify_url", notifyUrl.toString());
    HttpRequest post =
        http.request("/sandbox/v1/payments", "register:" + request.paymentId())
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofByteArray(json.bytes(body)))
            .build();
    String what = "register " + request.paymentId();
    SandboxHttp.Answer answer = SandboxHttp.requireSuccess(http.exchange(post, what), what);
    String payUrl = read(answer, what, node -> SandboxJson.text(node, "pay_url"));
    return new ChannelRegistration(request.paymentId(), payUrl);
  }

  /** See {@link SandboxChannel#query}. */
  ChannelQueryResult query(String paymentId) throws ChannelException {
    HttpRequest get = http.request(paymentPath(paymentId), "query:" + paymentId).GET().build();
    String what = "query " + paymentId;
    return paymentState(paymentId, http.exchange(get, what), what);
  }

  /** See {@link SandboxChannel#close}. */
  ChannelQueryResult close(String paymentId) throws ChannelException {
    HttpRequest post =
        http.request(paymentPath(paymentId) + "/close", "close:" + paymentId)
            .POST(HttpRequest.BodyPublishers.noBody())
            .build();
    String what = "close " + paymentId;
    return paymentState(paymentId, http.exchange(post, what), what);
  }

  /** See {@link SandboxChannel#statement}. */
  StatementPage statement(LocalDate date, String pageToken) throws ChannelException {
    String query = pageToken == null ? "" : "?page_token=" + SandboxHttp.segment(pageToken);
    HttpRequest get =
        http.request("/sandbox/v1/statements/" + date + query, statementKey(date, pageToken))
            .setHeader("Accept", SandboxStatementReader.NDJSON)
            .GET()
            .build();
    String what = "statement " + date;
    SandboxHttp.Answer answer = SandboxHttp.requireSuccess(http.exchange(get, what), what);
    return statements.read(date, answer, what);
  }

  /** {@code statement:{date}:{pageToken}}, with an empty token for the first page. */
  private static String statementKey(LocalDate date, String pageToken) {
    return "statement:" + date + ":" + (pageToken == null ? "" : pageToken);
  }

  private static String paymentPath(String paymentId) {
    return "/sandbox/v1/payments/" + SandboxHttp.segment(paymentId);
  }

  /** A query or close answer: 404 is NOT_FOUND, a 2xx carries the payment's state. */
  private ChannelQueryResult paymentState(String paymentId, SandboxHttp.Answer answer, String what)
      throws ChannelException {
    if (answer.status() == 404) {
      return new ChannelQueryResult(paymentId, ChannelPaymentStatus.NOT_FOUND, null, null);
    }
    return read(
        SandboxHttp.requireSuccess(answer, what),
        what,
        node ->
            new ChannelQueryResult(
                paymentId,
                ChannelPaymentStatus.valueOf(SandboxJson.text(node, "status")),
                SandboxJson.optionalText(node, "channel_txn_id").orElse(null),
                Money.parse(SandboxJson.text(node, "amount"), SandboxJson.text(node, "currency"))));
  }

  /**
   * Reads a 2xx answer's JSON; an answer that is not the documented shape will not improve on
   * retry, so it is a non-retryable ChannelException.
   */
  private <T> T read(SandboxHttp.Answer answer, String what, Function<JsonNode, T> reader)
      throws ChannelException {
    try {
      return reader.apply(json.object(answer.body()));
    } catch (IllegalArgumentException e) {
      throw new ChannelException("sandbox " + what + " answer unreadable: " + e, false, e);
    }
  }
}

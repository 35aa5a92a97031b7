package dev.payrelay.channels.sandbox;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.payrelay.domain.channel.ChannelException;
import dev.payrelay.domain.channel.ChannelRefundRequest;
import dev.payrelay.domain.channel.ChannelRefundResult;
import dev.payrelay.domain.channel.ChannelRefundStatus;
import java.net.http.HttpRequest;

/**
 * The refund calls of {@link SandboxChannel}: submit ({@code POST
 * /sandbox/v1/payments/{id}/refunds}) and query by our refund number ({@code GET
 * /sandbox/v1/payments/{id}/refunds/{refundNo}}), answers read by {@link SandboxRefundJson}.
 *
 * <p>The sandbox makes at most one refund per refund number, so a resubmission is safe; the calls
 * also carry {@code Idempotency-Key}s derived from the number ({@code refund:{refundNo}}, {@code
 * query-refund:{refundNo}}), never from the attempt.
 */
final class SandboxRefundClient {

  /** The sandbox's status for a refund refused on its merits (too much, or not paid). */
  static final int UNPROCESSABLE = 422;

  private final SandboxHttp http;
  private final SandboxJson json;

  SandboxRefundClient(SandboxHttp http, SandboxJson json) {
    this.http = http;
    this.json = json;
  }

  /** See {@link SandboxChannel#refund}. */
  ChannelRefundResult refund(ChannelRefundRequest request) throws ChannelException {
    ObjectNode body = json.newObject();
    body.put("refund_no", request.refundNo());
    body.put("amount", request.amount().toDecimalString());
    body.put("currency", request.amount().currencyCode());
    body.put("reason", request.reason());
    HttpRequest post =
        http.request(refundsPath(request.paymentId()), "refund:" + request.refundNo())
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofByteArray(json.bytes(body)))
            .build();
    String what = "refund " + request.refundNo() + " of " + request.paymentId();
    SandboxHttp.Answer answer = http.exchange(post, what);
    if (answer.status() == UNPROCESSABLE) {
      return new ChannelRefundResult(
          request.refundNo(), ChannelRefundStatus.FAILED, null, null, error(answer));
    }
    return read(SandboxHttp.requireSuccess(answer, what), what);
  }

  /** See {@link SandboxChannel#queryRefund}. */
  ChannelRefundResult query(String paymentId, String refundNo) throws ChannelException {
    HttpRequest get =
        http.request(
                refundsPath(paymentId) + "/" + SandboxHttp.segment(refundNo),
                "query-refund:" + refundNo)
            .GET()
            .build();
    String what = "query refund " + refundNo + " of " + paymentId;
    SandboxHttp.Answer answer = http.exchange(get, what);
    if (answer.status() == 404) {
      return ChannelRefundResult.notFound(refundNo);
    }
    return read(SandboxHttp.requireSuccess(answer, what), what);
  }

  private static String refundsPath(String paymentId) {
    return "/sandbox/v1/payments/" + SandboxHttp.segment(paymentId) + "/refunds";
  }

  /** A 2xx refund answer; one that is not the documented shape will not improve on retry. */
  private ChannelRefundResult read(SandboxHttp.Answer answer, String what) throws ChannelException {
    try {
      return SandboxRefundJson.result(json.object(answer.body()));
    } catch (IllegalArgumentException e) {
      throw new ChannelException("sandbox " + what + " answer unreadable: " + e, false, e);
    }
  }

  /** The {@code error} of a refusal, or its raw body when it has none. */
  private String error(SandboxHttp.Answer answer) {
    try {
      return SandboxJson.text(json.object(answer.body()), "error");
    } catch (IllegalArgumentException e) {
      return answer.bodyText();
    }
  }
}

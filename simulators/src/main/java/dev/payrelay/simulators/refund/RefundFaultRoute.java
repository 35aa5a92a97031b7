package dev.payrelay.simulators.refund;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import java.io.IOException;

/**
 * {@code POST /admin/refund-faults}, a simulator's admin route for {@link RefundFault}s, one order
 * at a time: body {@code {"out_trade_no":"p-1","fault":"ANSWER_LATE","delay_millis":3000}} (see
 * {@link RefundFault#fromJson}); for {@code UNREQUESTED} the simulator makes a console refund at
 * once, its amount read from the body by the simulator ({@link Unrequested}).
 *
 * <p>Answers 200 {@code {"out_trade_no","fault","delay_millis"}}, plus {@code refund_no} (the
 * console refund's merchant refund number) for UNREQUESTED; 400 {@code text/plain} for a bad body;
 * 409 when the channel would refuse the console refund (not paid, more than is left).
 */
public final class RefundFaultRoute {

  /** Makes a console refund for UNREQUESTED. */
  @FunctionalInterface
  public interface Unrequested {
    /**
     * @return the refund's merchant refund number
     * @throws IllegalArgumentException for a missing or bad amount in {@code body} (answered 400)
     * @throws IllegalStateException when the channel refuses it (answered 409)
     */
    String refund(String outTradeNo, JsonNode body);
  }

  private final ObjectMapper json = new ObjectMapper();
  private final RefundFaults faults;
  private final Unrequested unrequested;

  /**
   * @param faults where the faults are set
   * @param unrequested makes the simulator's console refund for UNREQUESTED
   */
  public RefundFaultRoute(RefundFaults faults, Unrequested unrequested) {
    this.faults = faults;
    this.unrequested = unrequested;
  }

  /** Handles one request. */
  public void handle(Context ctx) {
    ObjectNode answer = json.createObjectNode();
    try {
      JsonNode body = json.readTree(ctx.bodyAsBytes());
      String outTradeNo = body == null ? "" : body.path("out_trade_no").asText("");
      if (outTradeNo.isEmpty()) {
        throw new IllegalArgumentException("out_trade_no is required");
      }
      RefundFault fault = RefundFault.fromJson(body);
      answer.put("out_trade_no", outTradeNo);
      answer.put("fault", fault.kind().name());
      answer.put("delay_millis", fault.delay().toMillis());
      if (fault.kind() == RefundFault.Kind.UNREQUESTED) {
        answer.put("refund_no", unrequested.refund(outTradeNo, body));
      } else {
        faults.set(outTradeNo, fault);
      }
    } catch (IOException | IllegalArgumentException e) {
      ctx.status(400)
          .contentType("text/plain; charset=utf-8")
          .result(String.valueOf(e.getMessage()));
      return;
    } catch (IllegalStateException refused) {
      ctx.status(409).contentType("text/plain; charset=utf-8").result(refused.getMessage());
      return;
    }
    ctx.contentType("application/json").result(answer.toString());
  }
}

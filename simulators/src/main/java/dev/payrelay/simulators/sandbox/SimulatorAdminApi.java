package dev.payrelay.simulators.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.payrelay.channels.sandbox.SandboxJson;
import dev.payrelay.simulators.sandbox.SandboxMode.Callbacks;
import io.javalin.http.Context;
import java.time.Duration;
import java.util.Optional;

/**
 * POST /sandbox/v1/admin/mode: sets a {@link SandboxMode}, globally or for one payment.
 *
 * <p>Body (every field optional; an omitted one takes {@link SandboxMode#NORMAL}'s value, so {@code
 * {}} restores normal behaviour):
 *
 * <pre>{@code
 * {"payment_id":"p-1", "callbacks":"DELIVER"|"DROP"|"DELAY", "callback_delay_millis":2000,
 *  "query_failures":3, "query_delay_millis":500}
 * }</pre>
 *
 * <p>Without {@code payment_id} it sets the global mode; with it, that payment's own mode (which
 * wins over the global one). Answers 200 with the mode as set, in the same shape; 400 for an
 * unknown callbacks value or a number that is not a non-negative integer.
 */
final class SimulatorAdminApi {

  private final SimulatorModes modes;
  private final SandboxJson json;

  SimulatorAdminApi(SimulatorModes modes, SandboxJson json) {
    this.modes = modes;
    this.json = json;
  }

  /** Sets the mode and echoes it. */
  void setMode(Context ctx) {
    JsonNode body = json.object(ctx.bodyAsBytes());
    Optional<String> paymentId = SandboxJson.optionalText(body, "payment_id");
    SandboxMode mode =
        new SandboxMode(
            callbacks(SandboxJson.optionalText(body, "callbacks").orElse("DELIVER")),
            Duration.ofMillis(number(body, "callback_delay_millis")),
            Math.toIntExact(number(body, "query_failures")),
            Duration.ofMillis(number(body, "query_delay_millis")));
    paymentId.ifPresentOrElse(id -> modes.set(id, mode), () -> modes.set(mode));
    ObjectNode answer = json.newObject();
    answer.put("payment_id", paymentId.orElse(null));
    answer.put("callbacks", mode.callbacks().name());
    answer.put("callback_delay_millis", mode.callbackDelay().toMillis());
    answer.put("query_failures", mode.queryFailures());
    answer.put("query_delay_millis", mode.queryDelay().toMillis());
    ctx.status(200).contentType("application/json").result(json.bytes(answer));
  }

  private static Callbacks callbacks(String text) {
    try {
      return Callbacks.valueOf(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("callbacks must be DELIVER, DROP or DELAY: " + text, e);
    }
  }

  /** A field that is absent (0) or a non-negative integer below 2^31. */
  static long number(JsonNode body, String field) {
    JsonNode value = body.get(field);
    if (value == null || value.isNull()) {
      return 0;
    }
    if (!value.isIntegralNumber() || !value.canConvertToInt() || value.asInt() < 0) {
      throw new IllegalArgumentException(field + " must be a non-negative integer: " + value);
    }
    return value.asInt();
  }
}

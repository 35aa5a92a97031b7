package dev.payrelay.api.http;

import dev.payrelay.api.auth.Public;
import dev.payrelay.api.webhook.WebhookResponse;
import dev.payrelay.api.webhook.WebhookService;
import io.javalin.http.Context;
import java.util.Arrays;
import java.util.Map;

/**
 * The channel callbacks, which take no key (each is verified by the channel's signature): {@code
 * POST /v1/webhooks/{channel}}, answered in the channel's protocol, and {@code POST
 * /v1/webhooks/{channel}/{merchantId}}, the same verified by that merchant account. A body longer
 * than the limit is recorded (its first bytes) and refused with 413.
 *
 * <p>A body is read on the request's virtual thread, then decided on a platform thread ({@link
 * PlatformHandoff}); closing these routes stops those threads.
 */
final class WebhookRoutes implements AutoCloseable {

  /**
   * Callbacks decided at once: more than the API's database pool (10 by default), whose 5 s wait
   * for a connection then bounds the rest as before.
   */
  private static final int CALLBACK_THREADS = 32;

  private final PlatformHandoff callbacks =
      new PlatformHandoff("payrelay-callback-", CALLBACK_THREADS);
  private final WebhookService webhooks;
  private final int bodyLimit;
  private final BodyReader bodies;

  /**
   * Routes to {@code webhooks}.
   *
   * @param bodyLimit the largest callback body accepted, in bytes
   */
  WebhookRoutes(WebhookService webhooks, int bodyLimit, BodyReader bodies) {
    this.webhooks = webhooks;
    this.bodyLimit = bodyLimit;
    this.bodies = bodies;
  }

  /** Registers both routes. */
  void register(Routes routes) {
    routes.post("/v1/webhooks/{channel}", Public.CHANNEL_SIGNATURE, this::webhook);
    routes.post("/v1/webhooks/{channel}/{merchant}", Public.CHANNEL_SIGNATURE, this::webhook);
  }

  /** Reads the body on the request's (virtual) thread, then decides it on {@link #callbacks}. */
  private void webhook(Context ctx) throws Exception {
    byte[] body = bodies.readWebhook(ctx, bodyLimit + 1);
    boolean truncated = body.length > bodyLimit;
    String channel = ctx.pathParam("channel");
    String merchant = ctx.pathParamMap().get("merchant");
    Map<String, String> headers = ctx.headerMap();
    byte[] kept = truncated ? Arrays.copyOf(body, bodyLimit) : body;
    String ip = ctx.ip();
    WebhookResponse r =
        callbacks.call(() -> webhooks.handle(channel, merchant, headers, kept, ip, truncated));
    ctx.status(r.status()).contentType(r.contentType()).result(r.body());
  }

  @Override
  public void close() {
    callbacks.close();
  }
}

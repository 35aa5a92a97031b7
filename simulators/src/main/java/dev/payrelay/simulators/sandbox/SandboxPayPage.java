package dev.payrelay.simulators.sandbox;

import dev.payrelay.channels.sandbox.SandboxHttp;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import io.javalin.http.Context;

/**
 * GET /sandbox/pay/{id}: the buyer's view of a payment, a tiny HTML page with the amount and, while
 * it is PENDING, a "Pay" button whose form posts to the pay endpoint (which then redirects back
 * here).
 */
final class SandboxPayPage {

  private final SimulatedPayments payments;

  SandboxPayPage(SimulatedPayments payments) {
    this.payments = payments;
  }

  /** Renders the page, or a 404 page for an unknown payment. */
  void render(Context ctx) {
    String id = ctx.pathParam("id");
    payments
        .find(id)
        .ifPresentOrElse(
            p -> ctx.html(page(p)),
            () -> ctx.status(404).html(frame("Unknown payment", "<p>No payment " + esc(id))));
  }

  private static String page(SimulatedPayment p) {
    StringBuilder body = new StringBuilder();
    body.append("<p>").append(esc(p.description())).append("</p>");
    body.append("<p class=amount>")
        .append(esc(p.amount().toDecimalString()))
        .append(' ')
        .append(esc(p.amount().currencyCode()))
        .append("</p><p>Status: <b>")
        .append(p.status().name())
        .append("</b></p>");
    if (p.status() == ChannelPaymentStatus.PENDING) {
      body.append("<form method=post action=\"/sandbox/v1/payments/")
          .append(esc(SandboxHttp.segment(p.paymentId())))
          .append("/pay\"><button type=submit>Pay</button></form>");
    }
    return frame("Sandbox payment " + esc(p.paymentId()), body.toString());
  }

  private static String frame(String title, String body) {
    return "<!doctype html><html><head><meta charset=utf-8><title>"
        + title
        + "</title></head><body><h1>"
        + title
        + "</h1>"
        + body
        + "</body></html>";
  }

  /** Escapes text for HTML element content and quoted attributes. */
  private static String esc(String text) {
    return text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;")
        .replace("'", "&#39;");
  }
}

package dev.payrelay.worker;

import dev.payrelay.api.AdminService;
import dev.payrelay.api.ApiHandlers;
import dev.payrelay.api.ApiServer;
import dev.payrelay.api.ChannelRegistry;
import dev.payrelay.api.CodecEndpoint;
import dev.payrelay.api.PaymentListingAdmin;
import dev.payrelay.api.PaymentQueries;
import dev.payrelay.api.PaymentService;
import dev.payrelay.api.ReconciliationAdmin;
import dev.payrelay.api.TemporalPaymentSignals;
import dev.payrelay.api.WebhookService;
import dev.payrelay.channels.sandbox.SandboxChannel;
import dev.payrelay.channels.sandbox.SandboxChannelConfig;
import dev.payrelay.sql.PaymentAudit;
import dev.payrelay.workflows.PaymentListing;
import io.temporal.client.WorkflowClient;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * The API role: payments, channel webhooks, health and metrics over HTTP. Needs only the database.
 */
public final class ApiRuntime {

  private ApiRuntime() {}

  /**
   * Builds and starts the API server on the configured host and port.
   *
   * @param temporal the client admin signals go through (the API accepts callbacks without it)
   * @param outboxCommitted called after each local commit that wrote an outbox event
   */
  public static ApiServer start(
      PayrelayConfig config, Services services, WorkflowClient temporal, Runnable outboxCommitted) {
    return build(config, services, temporal, outboxCommitted)
        .start(config.api().host(), config.api().port());
  }

  /** Builds (does not start) the API server. */
  public static ApiServer build(
      PayrelayConfig config, Services services, WorkflowClient temporal, Runnable outboxCommitted) {
    ChannelRegistry channels = new ChannelRegistry(List.of(sandboxChannel(config)));
    return new ApiServer(
        new ApiHandlers(
            new PaymentService(
                services.payments(),
                channels,
                config.sandbox().merchantId(),
                config.api().paymentTtl(),
                outboxCommitted),
            new PaymentQueries(
                services.payments(),
                services.outbox(),
                services.entitlements(),
                new PaymentAudit(services.database().dsl())),
            new WebhookService(
                services.inbox(),
                services.ledger(),
                channels,
                services.metrics(),
                Clock.systemUTC(),
                outboxCommitted,
                services.crashPoints()),
            admin(config, services, temporal),
            new ReconciliationAdmin(services.reconciliation(), channels, temporal),
            new PaymentListingAdmin(new PaymentListing(temporal)),
            services.metrics(),
            services::databaseUp,
            config.api().webhookBodyLimit(),
            codecEndpoint(config.temporal().security())));
  }

  /**
   * The Temporal UI's codec endpoint with the configured payload codec and UI origins. Open to
   * every caller that can reach the API listener (as the admin routes are today).
   */
  static CodecEndpoint codecEndpoint(TemporalSecurity security) {
    return new CodecEndpoint(
        security.payloadCodec().orElse(null),
        security.codecCorsOrigins(),
        CodecEndpoint.Access.OPEN);
  }

  /** The operator service the admin API and the CLI share. */
  static AdminService admin(PayrelayConfig config, Services services, WorkflowClient temporal) {
    return new AdminService(
        services.resolutions(),
        services.deadEvents(),
        services.payments(),
        services.outbox(),
        new TemporalPaymentSignals(
            temporal, config.amqp().publishRetries(), config.temporal().channelQueries()));
  }

  /** The sandbox channel adapter as configured (the API and the worker both use it). */
  static SandboxChannel sandboxChannel(PayrelayConfig config) {
    PayrelayConfig.SandboxSettings s = config.sandbox();
    return new SandboxChannel(
        new SandboxChannelConfig(
            s.url(),
            s.merchantId(),
            s.secret(),
            config.api().webhookUrl(SandboxChannel.NAME),
            s.signatureTolerance(),
            Duration.ofSeconds(5)),
        Clock.systemUTC(),
        HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build());
  }
}

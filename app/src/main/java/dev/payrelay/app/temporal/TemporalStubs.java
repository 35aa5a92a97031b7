package dev.payrelay.app.temporal;

import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.config.TemporalSecurity;
import dev.payrelay.app.config.TemporalTls;
import dev.payrelay.temporal.client.StableRequestIds;
import io.temporal.serviceclient.OperatorServiceStubs;
import io.temporal.serviceclient.OperatorServiceStubsOptions;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;

/**
 * The gRPC stubs to a Temporal frontend, with the TLS, API key and gRPC headers of {@link
 * TemporalSecurity}.
 */
public final class TemporalStubs {

  private TemporalStubs() {}

  /**
   * Stubs to {@code settings.target()}, reporting the SDK's metrics to {@code metricsScope} when it
   * is not null; they connect lazily, on the first call.
   *
   * <p>The API key goes through the SDK's {@code addApiKey}, which sends {@code authorization:
   * Bearer <key>} with every call (Temporal Cloud API keys); the TLS context is the SDK's {@code
   * SimpleSslContextBuilder}'s; a server name overrides the channel's authority, which Netty also
   * uses as the SNI name and the name checked in the server's certificate.
   */
  static WorkflowServiceStubs connect(
      PayrelayConfig.TemporalSettings settings, com.uber.m3.tally.Scope metricsScope) {
    TemporalSecurity security = settings.security();
    WorkflowServiceStubsOptions.Builder options =
        WorkflowServiceStubsOptions.newBuilder()
            .setTarget(settings.target())
            .setGrpcCompression(settings.compression())
            // An outbox event's signal-with-start carries the event's own request id.
            .addGrpcClientInterceptor(StableRequestIds.INTERCEPTOR);
    if (metricsScope != null) {
      options.setMetricsScope(metricsScope);
    }
    TemporalTls tls = security.tls();
    if (tls != null) {
      options.setSslContext(tls.sslContext()).setEnableHttps(true);
      if (tls.serverName() != null) {
        options.setChannelInitializer(channel -> channel.overrideAuthority(tls.serverName()));
      }
    } else {
      options.setEnableHttps(false);
    }
    String apiKey = security.apiKey();
    if (apiKey != null) {
      options.addApiKey(() -> apiKey);
    }
    io.grpc.Metadata metadata = security.grpcMetadata();
    if (metadata != null) {
      // Temporal's TEMPORAL_GRPC_META_* headers (temporal-envconfig), sent with every call.
      options.addGrpcMetadataProvider(() -> metadata);
    }
    return WorkflowServiceStubs.newServiceStubs(options.build());
  }

  /**
   * Operator-service stubs on the same channel as {@code stubs} (TLS included); the API key is
   * added again because the SDK sends it per stub, not per channel.
   */
  public static OperatorServiceStubs operator(WorkflowServiceStubs stubs, String apiKey) {
    OperatorServiceStubsOptions.Builder options =
        OperatorServiceStubsOptions.newBuilder().setChannel(stubs.getRawChannel());
    if (apiKey != null) {
      options.addApiKey(() -> apiKey);
    }
    return OperatorServiceStubs.newServiceStubs(options.validateAndBuildWithDefaults());
  }
}

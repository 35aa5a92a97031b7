package dev.payrelay.worker;

import dev.payrelay.workflows.PaymentSearchAttributes;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.enums.v1.IndexedValueType;
import io.temporal.api.operatorservice.v1.AddSearchAttributesRequest;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.serviceclient.OperatorServiceStubs;
import io.temporal.serviceclient.OperatorServiceStubsOptions;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.testserver.TestServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client connection to Temporal, optionally to an embedded Java test server bound to a port (for
 * {@code payrelay dev}: it keeps everything in memory and lacks visibility listing and schedules,
 * so payrelay lists payments from its own tables). Registers payrelay's search attributes.
 */
public final class TemporalConnection implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(TemporalConnection.class);

  private final TestServer.PortBoundTestServer embedded;
  private final WorkflowServiceStubs stubs;
  private final WorkflowClient client;

  private TemporalConnection(
      TestServer.PortBoundTestServer embedded, WorkflowServiceStubs stubs, String namespace) {
    this.embedded = embedded;
    this.stubs = stubs;
    this.client =
        WorkflowClient.newInstance(
            stubs, WorkflowClientOptions.newBuilder().setNamespace(namespace).build());
  }

  /** Connects (starting the embedded server first when no address is configured). */
  public static TemporalConnection open(PayrelayConfig.TemporalSettings settings) {
    TestServer.PortBoundTestServer embedded =
        settings.embedded() ? TestServer.createPortBoundServer(settings.embeddedPort()) : null;
    WorkflowServiceStubs stubs =
        WorkflowServiceStubs.newServiceStubs(
            WorkflowServiceStubsOptions.newBuilder().setTarget(settings.target()).build());
    TemporalConnection connection = new TemporalConnection(embedded, stubs, settings.namespace());
    connection.registerSearchAttributes(settings.namespace());
    return connection;
  }

  /**
   * A client only, to an already running frontend (e.g. the {@code payrelay api} process or the CLI
   * signalling a {@code payrelay dev}'s embedded server). Connects lazily, on first call.
   */
  public static TemporalConnection client(PayrelayConfig.TemporalSettings settings) {
    WorkflowServiceStubs stubs =
        WorkflowServiceStubs.newServiceStubs(
            WorkflowServiceStubsOptions.newBuilder().setTarget(settings.target()).build());
    return new TemporalConnection(null, stubs, settings.namespace());
  }

  /** The client for the configured namespace. */
  public WorkflowClient client() {
    return client;
  }

  /** Whether this connection runs the embedded test server. */
  public boolean embedded() {
    return embedded != null;
  }

  private void registerSearchAttributes(String namespace) {
    OperatorServiceStubs operator =
        OperatorServiceStubs.newServiceStubs(
            OperatorServiceStubsOptions.newBuilder()
                .setChannel(stubs.getRawChannel())
                .validateAndBuildWithDefaults());
    AddSearchAttributesRequest.Builder request =
        AddSearchAttributesRequest.newBuilder().setNamespace(namespace);
    PaymentSearchAttributes.ALL.forEach(
        key ->
            request.putSearchAttributes(
                key.getName(), IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD));
    try {
      operator.blockingStub().addSearchAttributes(request.build());
      log.info("registered search attributes {}", request.getSearchAttributesMap().keySet());
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() == Status.Code.ALREADY_EXISTS) {
        return;
      }
      if (embedded()) {
        throw e;
      }
      // A real cluster's operators may register them out of band (docker-compose does) and deny
      // this call; the worker still runs, and the workflows' upserts report what is missing.
      log.warn("could not register search attributes on {}: {}", namespace, e.getStatus());
    }
  }

  @Override
  public void close() {
    stubs.shutdown();
    if (embedded != null) {
      embedded.close();
    }
  }
}

package dev.payrelay.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.Duration;
import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.temporal.SearchAttributeRegistration;
import dev.payrelay.app.temporal.TemporalConnection;
import dev.payrelay.app.temporal.TemporalStubs;
import io.temporal.api.enums.v1.IndexedValueType;
import io.temporal.api.operatorservice.v1.AddSearchAttributesRequest;
import io.temporal.api.operatorservice.v1.ListSearchAttributesRequest;
import io.temporal.api.workflowservice.v1.RegisterNamespaceRequest;
import io.temporal.serviceclient.OperatorServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Start-up checks payrelay's search attributes by name and type on the real Temporal dev server: a
 * namespace where {@code PaymentState} is an Int is refused with one line naming the attribute,
 * both types and the fix, before any hand-off can fail on it; a namespace without them gets them as
 * Keywords.
 */
class SearchAttributeRegistrationTest {

  private static WorkflowServiceStubs stubs;
  private static OperatorServiceStubs operator;

  @BeforeAll
  static void connect() {
    stubs =
        WorkflowServiceStubs.newServiceStubs(
            WorkflowServiceStubsOptions.newBuilder().setTarget(RealTemporal.address()).build());
    operator = TemporalStubs.operator(stubs, null);
  }

  @AfterAll
  static void disconnect() {
    stubs.shutdownNow();
  }

  @Test
  void anAttributeRegisteredWithAnotherType_refusesStartUp_namingItsTypeAndTheFix()
      throws Exception {
    String namespace = RealTemporal.namespace(SearchAttributeRegistrationTest.class);
    register(namespace);
    // A namespace registered a moment ago is unknown to the frontend's cache for a few seconds.
    await()
        .atMost(java.time.Duration.ofSeconds(30))
        .ignoreExceptions()
        .until(
            () -> {
              operator
                  .blockingStub()
                  .addSearchAttributes(
                      AddSearchAttributesRequest.newBuilder()
                          .setNamespace(namespace)
                          .putSearchAttributes(
                              "PaymentState", IndexedValueType.INDEXED_VALUE_TYPE_INT)
                          .build());
              return true;
            });

    assertThatThrownBy(() -> TemporalConnection.open(settings(namespace)).close())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(
            "search attribute PaymentState is registered on namespace " + namespace)
        .hasMessageContaining("as Int, but payrelay needs Keyword")
        .hasMessageContaining("temporal operator search-attribute remove");
  }

  @Test
  void aNamespaceWithoutThem_getsEachAsAKeyword() throws Exception {
    String namespace = RealTemporal.namespace(SearchAttributeRegistrationTest.class);
    register(namespace);

    TemporalConnection.open(settings(namespace)).close();

    Map<String, IndexedValueType> listed =
        operator
            .blockingStub()
            .listSearchAttributes(
                ListSearchAttributesRequest.newBuilder().setNamespace(namespace).build())
            .getCustomAttributesMap();
    assertThat(listed)
        .containsEntry("PaymentState", IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD)
        .containsEntry("PaymentId", IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD)
        .containsEntry("TenantId", IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD);
  }

  @Test
  void typeNames_areTheOnesTheCliShows() {
    assertThat(SearchAttributeRegistration.typeName(IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD))
        .isEqualTo("Keyword");
    assertThat(SearchAttributeRegistration.typeName(IndexedValueType.INDEXED_VALUE_TYPE_DATETIME))
        .isEqualTo("Datetime");
  }

  private static void register(String namespace) {
    stubs
        .blockingStub()
        .registerNamespace(
            RegisterNamespaceRequest.newBuilder()
                .setNamespace(namespace)
                .setWorkflowExecutionRetentionPeriod(Duration.newBuilder().setSeconds(86_400))
                .build());
  }

  private static PayrelayConfig.TemporalSettings settings(String namespace) {
    Map<String, String> env = new HashMap<>();
    env.put("PAYRELAY_TEMPORAL_ADDRESS", RealTemporal.address());
    env.put("PAYRELAY_TEMPORAL_NAMESPACE", namespace);
    return PayrelayConfig.fromEnv(env).temporal();
  }
}

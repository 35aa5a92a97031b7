package dev.payrelay.temporal.client;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/**
 * The listing's refusals without a real server (the listing itself is tested on the real dev server
 * in the worker module): bad limits and tokens before any call, a closed port, and the in-memory
 * test server, which has no visibility store.
 */
class PaymentListingTest {

  private static final PaymentListingFilter NEEDS_ATTENTION =
      PaymentListingFilter.of("NEEDS_ATTENTION", null, null);

  @Test
  void limitOutside1To1000_orAMalformedPageToken_isRefusedBeforeAnyCall() throws Exception {
    try (Unreachable temporal = new Unreachable()) {
      PaymentListing listing = new PaymentListing(temporal.client);

      for (int limit : new int[] {0, -1, 1001}) {
        assertThatThrownBy(() -> listing.list(NEEDS_ATTENTION, limit, null))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("limit must be 1..1000, got " + limit);
      }
      assertThatThrownBy(() -> listing.list(NEEDS_ATTENTION, 10, "not base64 !"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("pageToken");
    }
  }

  @Test
  void closedPort_isUnavailable_namingTheAddress() throws Exception {
    try (Unreachable temporal = new Unreachable()) {
      assertThatThrownBy(() -> new PaymentListing(temporal.client).list(NEEDS_ATTENTION, 10, null))
          .isInstanceOf(PaymentListingUnavailableException.class)
          .hasMessageContaining("Temporal is unreachable at " + temporal.target);
    }
  }

  @Test
  void inMemoryTestServer_answersUnimplemented_soListingSaysItIsNotSupported() {
    TestWorkflowEnvironment env = TestWorkflowEnvironment.newInstance();
    try {
      assertThatThrownBy(
              () -> new PaymentListing(env.getWorkflowClient()).list(NEEDS_ATTENTION, 10, null))
          .isInstanceOf(PaymentListingUnavailableException.class)
          .hasMessageContaining("does not support listing workflows");
    } finally {
      env.close();
    }
  }

  /** A client for a port nothing listens on (connects lazily, so building it never fails). */
  private static final class Unreachable implements AutoCloseable {
    final String target;
    final WorkflowServiceStubs stubs;
    final WorkflowClient client;

    Unreachable() throws Exception {
      int port;
      try (ServerSocket s = new ServerSocket(0)) {
        port = s.getLocalPort();
      }
      target = "127.0.0.1:" + port;
      stubs =
          WorkflowServiceStubs.newServiceStubs(
              WorkflowServiceStubsOptions.newBuilder().setTarget(target).build());
      client =
          WorkflowClient.newInstance(
              stubs, WorkflowClientOptions.newBuilder().setNamespace("default").build());
    }

    @Override
    public void close() {
      stubs.shutdownNow();
    }
  }
}

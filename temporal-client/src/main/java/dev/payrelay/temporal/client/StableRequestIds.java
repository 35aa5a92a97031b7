package dev.payrelay.temporal.client;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.Context;
import io.grpc.ForwardingClientCall;
import io.grpc.MethodDescriptor;
import io.temporal.api.workflowservice.v1.SignalWithStartWorkflowExecutionRequest;
import io.temporal.api.workflowservice.v1.WorkflowServiceGrpc;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * Gives a {@code SignalWithStartWorkflowExecution} call a request id of ours instead of the SDK's
 * random one, so that repeating the call is one signal at the server. The Java SDK (1.38) mints a
 * new {@code request_id} for every {@code signalWithStart}, and the history service dedupes a
 * signal-with-start's signal to a running workflow by that id ({@code IsSignalRequested} in
 * temporal's {@code service/history/api/signalwithstartworkflow}); a call our side gave up on (a
 * lease deadline, a lost answer) that the server had already applied was therefore signalled again
 * by its retry.
 *
 * <p>Calls made inside {@link #run(String, Runnable)} on that thread carry its id: this interceptor
 * rewrites the request's {@code request_id} as it is sent; other calls, and calls outside {@code
 * run}, pass unchanged. It must be on the stubs' channel ({@code
 * WorkflowServiceStubsOptions.Builder#addGrpcClientInterceptor}); payrelay's connections always add
 * it.
 */
public final class StableRequestIds implements ClientInterceptor {

  /** The interceptor to add to the workflow service stubs. */
  public static final StableRequestIds INTERCEPTOR = new StableRequestIds();

  private static final Context.Key<String> REQUEST_ID = Context.key("payrelay-request-id");
  private static final String SIGNAL_WITH_START =
      WorkflowServiceGrpc.getSignalWithStartWorkflowExecutionMethod().getFullMethodName();

  private StableRequestIds() {}

  /**
   * The request id of every hand-off of outbox event {@code eventId}: a name-based UUID (RFC 4122
   * version 3) of {@code outbox-event:{eventId}}, the same in every process and attempt.
   */
  public static String forEvent(String eventId) {
    return UUID.nameUUIDFromBytes(("outbox-event:" + eventId).getBytes(StandardCharsets.UTF_8))
        .toString();
  }

  /**
   * Runs {@code call} with its signal-with-start calls on this thread sent as {@code requestId}.
   */
  public static void run(String requestId, Runnable call) {
    Context.current().withValue(REQUEST_ID, requestId).run(call);
  }

  @Override
  public <Q, R> ClientCall<Q, R> interceptCall(
      MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
    String requestId = REQUEST_ID.get();
    ClientCall<Q, R> call = next.newCall(method, options);
    if (requestId == null || !SIGNAL_WITH_START.equals(method.getFullMethodName())) {
      return call;
    }
    return new ForwardingClientCall.SimpleForwardingClientCall<>(call) {
      @Override
      @SuppressWarnings("unchecked")
      public void sendMessage(Q message) {
        super.sendMessage(
            (Q)
                ((SignalWithStartWorkflowExecutionRequest) message)
                    .toBuilder().setRequestId(requestId).build());
      }
    };
  }
}

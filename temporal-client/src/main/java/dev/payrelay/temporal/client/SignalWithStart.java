package dev.payrelay.temporal.client;

import io.temporal.api.enums.v1.WorkflowIdReusePolicy;
import io.temporal.client.BatchRequest;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionAlreadyStarted;
import io.temporal.client.WorkflowOptions;
import io.temporal.workflow.Functions;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Client-side helper (not workflow code): one signal-with-start of a workflow of type {@code W},
 * the form every payrelay signal takes, so that a signal reaches the workflow whether it is
 * running, finished or never started (the workflow id is the business key).
 */
final class SignalWithStart {

  /** What {@link #handOff} did. */
  enum Handoff {
    /** The running run got the signal, or a new run started with it. */
    SIGNALLED,
    /** The workflow had closed and the event was no longer waiting for a hand-off: nothing sent. */
    ALREADY_TAKEN
  }

  private SignalWithStart() {}

  /**
   * Starts the workflow if needed (with {@code run(input)}) and sends {@code signal(argument)}.
   *
   * @throws io.temporal.client.WorkflowServiceException when Temporal cannot be reached
   */
  static <W, I, A> void send(
      WorkflowClient client,
      Class<W> type,
      WorkflowOptions options,
      BiConsumer<W, I> run,
      I input,
      BiConsumer<W, A> signal,
      A argument) {
    W workflow = client.newWorkflowStub(type, options);
    BatchRequest request = client.newSignalWithStartRequest();
    Functions.Proc1<I> start = i -> run.accept(workflow, i);
    request.add(start, input);
    Functions.Proc1<A> send = a -> signal.accept(workflow, a);
    request.add(send, argument);
    client.signalWithStart(request);
  }

  /**
   * Hands outbox event {@code eventId} to its workflow so that the server holds it once, however
   * often this is repeated after an answer our side did not get:
   *
   * <ol>
   *   <li>the call carries the event's own request id ({@link StableRequestIds#forEvent}), so a
   *       running run that already got it is not signalled again;
   *   <li>it may not start a new run ({@code WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE}); when the
   *       workflow had closed, {@code awaitingHandoff} is asked after the server said so, and only
   *       an event still waiting for its hand-off starts a new run (same request id, {@code
   *       ALLOW_DUPLICATE}): the closed run never got it, or ended before publishing it.
   * </ol>
   *
   * @param awaitingHandoff whether the event's outbox row still waits for its hand-off (PENDING or
   *     DISPATCHED), read from the ledger
   * @throws io.temporal.client.WorkflowServiceException when Temporal cannot be reached
   */
  static <W, I, A> Handoff handOff(
      WorkflowClient client,
      Class<W> type,
      WorkflowOptions options,
      BiConsumer<W, I> run,
      I input,
      BiConsumer<W, A> signal,
      A argument,
      String eventId,
      BooleanSupplier awaitingHandoff) {
    String requestId = StableRequestIds.forEvent(eventId);
    Consumer<WorkflowIdReusePolicy> sendAs =
        policy ->
            StableRequestIds.run(
                requestId,
                () -> send(client, type, reuse(options, policy), run, input, signal, argument));
    try {
      sendAs.accept(WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE);
      return Handoff.SIGNALLED;
    } catch (WorkflowExecutionAlreadyStarted closed) {
      if (!awaitingHandoff.getAsBoolean()) {
        return Handoff.ALREADY_TAKEN;
      }
    }
    sendAs.accept(WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE);
    return Handoff.SIGNALLED;
  }

  private static WorkflowOptions reuse(WorkflowOptions options, WorkflowIdReusePolicy policy) {
    return WorkflowOptions.newBuilder(options).setWorkflowIdReusePolicy(policy).build();
  }
}

package dev.payrelay.workflows;

import io.temporal.workflow.Workflow;
import io.temporal.workflow.WorkflowInfo;

/**
 * Issues the idempotency key of each operator action a payment's workflow takes: {@code
 * {workflowId}:{originalRunId}:{n}}, n counting the run's operator signals from 1 in the order its
 * history delivered them. Every operator activity carries its signal's key, and the activity stores
 * its result under it, so a retry after a commit whose completion was lost (worker crash, timeout)
 * gets the first result instead of a refusal (DESIGN invariant 11).
 *
 * <p>Why these parts: the key is the signal, not its content, because a new signal from a human is
 * a new action even when it repeats the last one word for word (it is judged anew, e.g. refused as
 * "already PAID"). The sequence number is deterministic (replay issues the same keys) and costs no
 * history event. The run part is the original execution run id rather than the run id: Temporal
 * keeps it across a reset, which re-applies the signals after the reset point in their order, so an
 * action that committed before the reset is answered from its row instead of being refused; a
 * continue-as-new or a new run after the workflow completed gets a new one, so numbering from 1
 * again collides with nothing. (A reset that drops signals can make a later signal reuse a dropped
 * one's number: the activity then returns the stored result if it was the same action on the same
 * target, and refuses it otherwise.)
 */
final class OperatorActionKeys {

  private int issued;

  /** The next action's key; call once per operator signal, in the signal handler. */
  String next() {
    issued++;
    WorkflowInfo info = Workflow.getInfo();
    return info.getWorkflowId() + ":" + runPart(info) + ":" + issued;
  }

  private static String runPart(WorkflowInfo info) {
    String original = info.getOriginalExecutionRunId();
    // Servers that do not fill the field (older ones, the in-memory test server) leave it empty.
    return original == null || original.isEmpty() ? info.getRunId() : original;
  }
}

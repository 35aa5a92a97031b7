package dev.payrelay.tools.bench;

import io.temporal.workflow.SignalMethod;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * The {@code same-shape} baseline's workflow: a payment's happy path with nothing done (the
 * recorded {@code workflows/src/test/resources/histories/payment-happy-path.json}): started by
 * signal-with-start; in the first workflow task {@value #LOCAL_ACTIVITIES_PER_TASK} local
 * activities and one timer ({@value #TIMER_SECONDS} s, still pending when the workflow ends, as the
 * payment's watch timer is); a second signal; in the second task {@value
 * #LOCAL_ACTIVITIES_PER_TASK} local activities, then completion. The payment's 3 version markers
 * and 3 search-attribute upserts are left out: they are payrelay's own choices, which issue 29's
 * action target counts separately.
 */
@WorkflowInterface
public interface BenchShapeWorkflow {

  /** Signals a payment receives on its happy path: PaymentCreated, PaymentConfirmed. */
  int SIGNALS = 2;

  /** Local activities in each of the two workflow tasks, as in the recorded history. */
  int LOCAL_ACTIVITIES_PER_TASK = 2;

  /** The timer's length, as the payment's 30 s watch timer in the recorded history. */
  int TIMER_SECONDS = 30;

  /**
   * One signal.
   *
   * @param index which of the {@value #SIGNALS} signals, from 1
   */
  record Event(int index) {}

  /** Runs the shape; ends after the {@value #SIGNALS}-th signal's local activities. */
  @WorkflowMethod
  void run(BenchWorkflow.Request request);

  /** One of the payment's signals. */
  @SignalMethod
  void onEvent(Event event);
}

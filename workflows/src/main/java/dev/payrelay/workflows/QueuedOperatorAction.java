package dev.payrelay.workflows;

/**
 * An operator signal a run received but had not yet served when it continued as new, carried in the
 * next run's input ({@link PaymentWorkflowInput#operatorActions}) with the action key it was given,
 * so the next run serves it in the same order and a retried activity still finds the stored result
 * under that key ({@link OperatorActionKeys}). Exactly one of the signal fields is set, matching
 * {@code action}; a null signal (a raw signal sent without input) leaves all three null.
 *
 * @param action {@code RESOLVE}, {@link EventOperationHandler#REPLAY}, {@link
 *     EventOperationHandler#DISCARD}, {@code REQUERY} or {@code EXTEND_DEADLINE}
 * @param key the action key the receiving run issued
 * @param resolve the {@code resolve} signal, for RESOLVE
 * @param event the {@code replayEvent} / {@code discardEvent} signal
 * @param request the {@code requery} / {@code extendDeadline} signal
 */
public record QueuedOperatorAction(
    String action,
    String key,
    ResolveSignal resolve,
    EventOperatorSignal event,
    OperatorSignal request) {

  /** The action name of a {@code resolve} signal. */
  static final String RESOLVE = "RESOLVE";

  /** The action name of a {@code requery} signal. */
  static final String REQUERY = "REQUERY";

  /** The action name of an {@code extendDeadline} signal. */
  static final String EXTEND_DEADLINE = "EXTEND_DEADLINE";
}

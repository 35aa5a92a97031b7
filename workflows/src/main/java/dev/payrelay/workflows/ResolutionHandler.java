package dev.payrelay.workflows;

import dev.payrelay.domain.ResolutionAction;
import dev.payrelay.workflows.activities.RejectResolutionRequest;
import dev.payrelay.workflows.activities.ResolutionActivities;
import dev.payrelay.workflows.activities.ResolutionResult;
import dev.payrelay.workflows.activities.ResolveRequest;
import io.temporal.activity.ActivityOptions;
import io.temporal.workflow.Workflow;
import java.time.Duration;

/**
 * Workflow-side handling of the {@code resolve} signal: validates it deterministically, closes the
 * payment at its channel first for a {@code CLOSE} ({@link OperatorClose}), then has an activity
 * apply it (or audit its refusal). Runs inside {@link PaymentWorkflowImpl}.
 *
 * <p>The signal's token goes to the activity as it came: the workflow holds no secret, so the
 * activity decides whose identity the audit records and whether production refuses the action.
 * Passing it on changes no command the workflow issues, so histories from before the field replay
 * as they ran (an absent field deserializes as null). The one new step is a CLOSE's identity check
 * before the channel is asked ({@link #CLOSE_IDENTITY_CHANGE}).
 */
final class ResolutionHandler {

  /**
   * A resolution is a short transaction; it retries until the database answers, never twice in
   * effect.
   */
  private static final ActivityOptions OPTIONS =
      DatabaseActivityOptions.untilTheDatabaseAnswers(
          // One transaction on a handful of rows; refusals are results, not failures.
          Duration.ofSeconds(30));

  /** The {@code Workflow.getVersion} change id of the {@code ACKNOWLEDGE} action. */
  static final String ACKNOWLEDGE_CHANGE = "operator-acknowledge";

  private static final int ACKNOWLEDGE_VERSION = 1;

  /** The {@code Workflow.getVersion} change id of checking a CLOSE's identity first. */
  static final String CLOSE_IDENTITY_CHANGE = "operator-close-identity-first";

  private static final int CLOSE_IDENTITY_VERSION = 1;

  private final ResolutionActivities activities =
      Workflow.newActivityStub(ResolutionActivities.class, OPTIONS);
  private final OperatorClose close = new OperatorClose();

  /**
   * Applies or rejects {@code signal} for {@code paymentId} of channel {@code channelName}; the
   * result is always audited, under {@code actionKey} ({@link OperatorActionKeys}).
   */
  ResolutionResult handle(
      String paymentId, String channelName, ResolveSignal received, String actionKey) {
    // A signal sent without input (e.g. `temporal workflow signal` with no --input) arrives null.
    ResolveSignal signal = received == null ? new ResolveSignal(null, null, null) : received;
    String why = invalidBecause(received);
    ResolutionAction action =
        why == null ? ResolutionAction.parse(signal.action()).orElseThrow() : null;
    if (action == ResolutionAction.ACKNOWLEDGE && !acknowledgeKnown()) {
      why = "unknown action " + signal.action() + " (this run predates it)";
    } else if (action == ResolutionAction.CLOSE) {
      ResolveRequest asked = request(paymentId, signal, actionKey);
      if (!mayClose(asked)) {
        // The activity refuses it for its identity (audited REFUSED); the channel is not asked.
        return activities.resolve(asked);
      }
      why = close.refusal(paymentId, channelName);
    }
    if (why != null) {
      return activities.reject(
          new RejectResolutionRequest(
              paymentId,
              signal.operator(),
              signal.reason(),
              signal.action(),
              why,
              actionKey,
              signal.token()));
    }
    return activities.resolve(request(paymentId, signal, actionKey));
  }

  /** The activity's request for a valid {@code signal}. */
  private static ResolveRequest request(String paymentId, ResolveSignal signal, String actionKey) {
    return new ResolveRequest(
        paymentId,
        signal.operator().trim(),
        signal.reason().trim(),
        ResolutionAction.parse(signal.action()).orElseThrow().name(),
        actionKey,
        signal.token());
  }

  /**
   * Whether a {@code CLOSE} may go on to the channel: from version {@value #CLOSE_IDENTITY_VERSION}
   * of change {@value #CLOSE_IDENTITY_CHANGE}, only when the activity accepts its operator's
   * identity ({@link ResolutionActivities#mayApply}), since closing at the channel cannot be undone
   * by a later refusal; a history from before it (no marker) closed first, and replays so.
   */
  private boolean mayClose(ResolveRequest request) {
    int version =
        Workflow.getVersion(
            CLOSE_IDENTITY_CHANGE, Workflow.DEFAULT_VERSION, CLOSE_IDENTITY_VERSION);
    return version == Workflow.DEFAULT_VERSION || activities.mayApply(request);
  }

  /**
   * Whether this run knows {@link ResolutionAction#ACKNOWLEDGE}: true from version {@value
   * #ACKNOWLEDGE_VERSION} of change {@value #ACKNOWLEDGE_CHANGE}; a history from before it (no
   * marker) refused the action as unknown, and replays so.
   */
  private static boolean acknowledgeKnown() {
    return Workflow.getVersion(ACKNOWLEDGE_CHANGE, Workflow.DEFAULT_VERSION, ACKNOWLEDGE_VERSION)
        >= ACKNOWLEDGE_VERSION;
  }

  private static String invalidBecause(ResolveSignal signal) {
    return signal == null ? "empty signal" : signal.invalidBecause();
  }
}

package dev.payrelay.workflows;

import dev.payrelay.domain.Money;
import io.temporal.workflow.Workflow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;

/**
 * What a refund's workflow shows of its refund: the ledger's state as last read or written, the
 * counts of submissions and queries, the last error, the causes that need an operator, the operator
 * log and the published events ({@link RefundView}). Runs inside {@link RefundWorkflowImpl}.
 *
 * <p>Its only command is the {@code RefundState} search-attribute upsert, issued exactly when the
 * shown state changes. It keeps the run's current details in the Temporal UI ({@link
 * Workflow#setCurrentDetails}, not a command): the state, each cause with the signal that fixes it,
 * and what the run waits for, in words an on-call engineer reads.
 */
final class RefundStory implements DeliveryStory {

  /** The cause key while the refund stays unsettled past the attention threshold. */
  static final String UNSETTLED = "unsettled";

  /** The cause key when the channel says NOT_FOUND after the one resubmission. */
  static final String NOT_FOUND_AGAIN = "not-found-again";

  /** The cause key when the refund cannot be submitted (e.g. no merchant account configured). */
  static final String SUBMIT = "submit";

  private static final Logger log = Workflow.getLogger(RefundStory.class);

  private final Map<String, String> causes = new LinkedHashMap<>();
  private final List<String> operatorLog = new ArrayList<>();
  private final List<String> publishedEventIds = new ArrayList<>();
  private String refundId = WorkflowIds.refundIdOf(Workflow.getInfo().getWorkflowId()).orElse(null);
  private String paymentId;
  private String headline;
  private String ledgerState = RefundWorkflowState.REQUESTED.name();
  private RefundWorkflowState shown = RefundWorkflowState.REQUESTED;
  private int submissions;
  private int queries;
  private int failedQueries;
  private Long unsettledSince;
  private boolean unsettledInThisRun;
  private Long nextQueryAt;
  private String lastError;
  private String waitingFor;

  /** Names the refund and takes the counts earlier runs carried; called first in the run. */
  void begin(RefundWorkflowInput input) {
    refundId = input.refundId();
    paymentId = input.paymentId();
    headline =
        "refund "
            + input.refundId()
            + " of "
            + input.paymentId()
            + " "
            + Money.ofMinor(input.amountMinor(), input.currency())
            + " via "
            + input.channel();
    queries = input.queriesSoFar();
    failedQueries = input.failedQueries();
    unsettledSince =
        input.unsettledSince() == null
            ? null
            : Instant.parse(input.unsettledSince()).toEpochMilli();
  }

  String refundId() {
    return refundId;
  }

  /** Takes the ledger's word: its refund state and how many submissions it holds. */
  void ledger(String state, int submissionsSoFar) {
    ledgerState = state;
    submissions = Math.max(submissions, submissionsSoFar);
    if (settled()) {
      causes.remove(UNSETTLED);
      causes.remove(NOT_FOUND_AGAIN);
      causes.remove(SUBMIT);
      nextQueryAt = null;
    } else {
      unsettledInThisRun = true;
      if (unsettledSince == null) {
        unsettledSince = Workflow.currentTimeMillis();
      }
    }
    showState();
  }

  /** Whether this run (not an earlier one of the chain) read the refund unsettled. */
  boolean unsettledInThisRun() {
    return unsettledInThisRun;
  }

  /** Whether the ledger holds the refund SUCCEEDED or FAILED. */
  boolean settled() {
    return "SUCCEEDED".equals(ledgerState) || "FAILED".equals(ledgerState);
  }

  String ledgerState() {
    return ledgerState;
  }

  int submissions() {
    return submissions;
  }

  int queries() {
    return queries;
  }

  int failedQueries() {
    return failedQueries;
  }

  /** When the runs first saw the refund unsettled (epoch milliseconds), or null. */
  Long unsettledSince() {
    return unsettledSince;
  }

  /** Counts a query; {@code failure} is its error when it failed (the state stays unknown). */
  void queried(String failure) {
    queries++;
    if (failure != null) {
      failedQueries++;
      lastError = failure;
    }
  }

  /** Records the channel's last word that left the refund unsettled (null clears it). */
  void lastError(String error) {
    lastError = error;
    publishDetails();
  }

  String lastError() {
    return lastError;
  }

  /** When the next query is due (epoch milliseconds), or null. */
  void nextQueryAt(Long at) {
    nextQueryAt = at;
  }

  @Override
  public void needsAttention(String cause, String error) {
    if (!error.equals(causes.get(cause))) {
      log.warn("refund {} needs attention: {}", refundId, error);
    }
    causes.put(cause, error);
    showState();
  }

  /** Closes {@code cause} and shows the result. */
  void clear(String cause) {
    if (causes.remove(cause) != null) {
      showState();
    }
  }

  boolean hasCause(String cause) {
    return causes.containsKey(cause);
  }

  @Override
  public void published(String eventId) {
    publishedEventIds.add(eventId);
  }

  @Override
  public void waitingFor(String what) {
    waitingFor = what;
    publishDetails();
  }

  /** Adds an operator action's outcome to the log the {@code state} query shows. */
  void logOperator(String what, String who, boolean applied, String message) {
    operatorLog.add(what + " by " + who + ": " + (applied ? "APPLIED " : "REJECTED ") + message);
    publishDetails();
  }

  /**
   * Shows NEEDS_ATTENTION while a cause is open, else the ledger's state; keeps the attribute
   * current.
   */
  void showState() {
    RefundWorkflowState next =
        causes.isEmpty()
            ? RefundWorkflowState.valueOf(ledgerState)
            : RefundWorkflowState.NEEDS_ATTENTION;
    if (next != shown) {
      log.info("refund {}: {} -> {}", refundId, shown, next);
      shown = next;
      Workflow.upsertTypedSearchAttributes(
          RefundSearchAttributes.REFUND_STATE.valueSet(next.name()));
    }
    publishDetails();
  }

  RefundWorkflowState shown() {
    return shown;
  }

  /** The run's current details, Markdown. */
  String details() {
    StringBuilder text = new StringBuilder("**").append(shown).append("** — ").append(headline);
    for (Map.Entry<String, String> cause : causes.entrySet()) {
      text.append("\n- ")
          .append(cause.getValue())
          .append(" — fix: ")
          .append(fixFor(cause.getKey()));
    }
    if (waitingFor != null) {
      text.append("\n\nWaiting for: ").append(waitingFor);
    }
    return text.toString();
  }

  private static String fixFor(String cause) {
    if (cause.startsWith("dead:")) {
      return "fix why the publish failed, then replay the event (docs/operations.md, 'A refund is"
          + " stuck')";
    }
    return switch (cause) {
      case SUBMIT ->
          "fix the cause above (e.g. configure the merchant account), then send requery to try"
              + " the submission again";
      default ->
          "look the refund up at the channel by our refund number, then send acceptAsRefunded"
              + " {operator, reason, evidence: the channel's refund id} or markFailed {operator,"
              + " reason}; requery asks again now";
    };
  }

  private void publishDetails() {
    Workflow.setCurrentDetails(details());
  }

  /** The {@code state} query's answer. */
  RefundView view(List<String> pendingEventIds) {
    return new RefundView(
        refundId,
        paymentId,
        shown,
        ledgerState,
        submissions,
        queries,
        failedQueries,
        unsettledSince == null ? null : Instant.ofEpochMilli(unsettledSince).toString(),
        nextQueryAt == null ? null : Instant.ofEpochMilli(nextQueryAt).toString(),
        lastError,
        causes.isEmpty() ? null : String.join("; ", causes.values()),
        List.copyOf(publishedEventIds),
        List.copyOf(pendingEventIds),
        List.copyOf(operatorLog),
        waitingFor,
        details());
  }
}

package dev.payrelay.workflows;

import static dev.payrelay.workflows.PaymentWorkflowState.AWAITING_PAYMENT;
import static dev.payrelay.workflows.PaymentWorkflowState.CLOSED;
import static dev.payrelay.workflows.PaymentWorkflowState.EXPIRED;
import static dev.payrelay.workflows.PaymentWorkflowState.NEEDS_ATTENTION;
import static dev.payrelay.workflows.PaymentWorkflowState.PAID;

import dev.payrelay.workflows.activities.LedgerView;
import io.temporal.workflow.Workflow;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;

/**
 * What a payment's workflow shows of its payment: the base state the lifecycle reached, the open
 * {@link Attention} causes that turn it into NEEDS_ATTENTION, the last error, the operator log and
 * the published and granted lists ({@link PaymentView}), plus whether the payment is confirmed
 * (owed a grant). Runs inside {@link PaymentWorkflowImpl}.
 *
 * <p>Its only command is the {@code PaymentState} search-attribute upsert, issued exactly when the
 * shown state changes; under {@link StartAttributes}, a {@link StateAttribute} issues it instead,
 * at most once per workflow task ({@link #deferUpserts}). It also keeps the run's "current details"
 * in the Temporal UI ({@link Workflow#setCurrentDetails}, not a command): the state, each cause
 * with the signal that fixes it, and what the run waits for, in words an on-call engineer reads.
 */
final class PaymentStory implements DeliveryStory {

  private static final Logger log = Workflow.getLogger(PaymentStory.class);

  private final Attention attention = new Attention();
  private final List<String> operatorLog = new ArrayList<>();
  private final List<String> publishedEventIds = new ArrayList<>();
  private final List<String> grantedCourseIds = new ArrayList<>();
  // From the workflow id until run() names it: a signal-with-start's signal is handled before the
  // run method starts, and its log lines must name the payment too.
  private String paymentId =
      WorkflowIds.paymentIdOf(Workflow.getInfo().getWorkflowId()).orElse(null);
  private PaymentWorkflowState base = AWAITING_PAYMENT;
  private PaymentWorkflowState shown = AWAITING_PAYMENT;
  private String lastError;
  private String waitingFor;
  private boolean confirmed;
  private boolean refunded;
  // Under StartAttributes a StateAttribute writes PaymentState; false for histories from before.
  private boolean upsertsDeferred;

  /** Names the payment this story is about; called once, first thing in the run. */
  void begin(String paymentId) {
    this.paymentId = paymentId;
  }

  /** From now on, leaves the {@code PaymentState} upsert to a {@link StateAttribute}. */
  void deferUpserts() {
    upsertsDeferred = true;
  }

  String paymentId() {
    return paymentId;
  }

  PaymentWorkflowState base() {
    return base;
  }

  PaymentWorkflowState shown() {
    return shown;
  }

  /** Whether the payment is PAID as far as this run knows, so its entitlements are owed. */
  boolean confirmed() {
    return confirmed;
  }

  /**
   * Records that the payment is paid; the grant thread then grants (idempotent by its key). Not for
   * a payment the ledger holds REFUNDED: its purchase is owed nothing.
   */
  void confirm() {
    if (!refunded) {
      confirmed = true;
    }
  }

  /** Whether no cause needs an operator. */
  boolean noOpenCause() {
    return attention.isEmpty();
  }

  /** Takes the ledger's word over anything this run was told: status, open causes. */
  void applyLedger(LedgerView ledger) {
    applyLedger(ledger, false);
  }

  /**
   * As {@link #applyLedger(LedgerView)}; with {@code knowsRefunds} ({@link RefundedPayments}) a
   * PARTIALLY_REFUNDED payment is PAID and owed its grant, a REFUNDED one is settled REFUNDED and
   * owed nothing.
   */
  void applyLedger(LedgerView ledger, boolean knowsRefunds) {
    if (knowsRefunds && RefundedPayments.isRefunded(ledger.status())) {
      applyRefunded(ledger.status());
      applyCauses(ledger);
      return;
    }
    switch (ledger.status()) {
      case "PAID" -> {
        setBase(PAID);
        // The grant is an obligation of every PAID payment; it is idempotent by its key.
        confirmed = true;
      }
      case "CLOSED" -> setBase(CLOSED);
      case "EXPIRED" -> setBase(EXPIRED);
      default -> {
        // PENDING: awaiting the channel's word.
      }
    }
    applyCauses(ledger);
  }

  /**
   * Takes a refunded {@code status} (PARTIALLY_REFUNDED or REFUNDED, from the ledger or an
   * operator's resolution) as settled: PARTIALLY_REFUNDED is PAID and owed its grant, REFUNDED is
   * settled REFUNDED and owed nothing. Shows the result.
   */
  void applyRefunded(String status) {
    confirmed = RefundedPayments.owesEntitlements(status);
    refunded = !confirmed;
    setBase(confirmed ? PAID : PaymentWorkflowState.REFUNDED);
  }

  private void applyCauses(LedgerView ledger) {
    if (ledger.openExceptions() > 0) {
      needsAttention(
          Attention.EXCEPTION, ledger.openExceptions() + " open exception(s) in the ledger");
    }
    for (String eventId : ledger.deadEventIds()) {
      needsAttention(Attention.dead(eventId), "event " + eventId + " is DEAD in the outbox");
    }
  }

  /** Opens {@code cause} (an {@link Attention} key) with {@code error} and shows the result. */
  @Override
  public void needsAttention(String cause, String error) {
    log.warn("payment {} needs attention: {}", paymentId, error);
    lastError = error;
    attention.raise(cause, error);
    showState();
  }

  /** Closes {@code cause} without showing the result; call {@link #showState} or setBase next. */
  void clear(String cause) {
    attention.clear(cause);
  }

  /** Moves the lifecycle to {@code next} and shows the result. */
  void setBase(PaymentWorkflowState next) {
    base = next;
    showState();
  }

  /**
   * Shows NEEDS_ATTENTION while a cause is open, else the base state; keeps the attribute current.
   */
  void showState() {
    PaymentWorkflowState next = attention.isEmpty() ? base : NEEDS_ATTENTION;
    lastError = attention.lastMessage();
    if (next == shown) {
      publishDetails();
      return;
    }
    log.info("payment {}: {} -> {}", paymentId, shown, next);
    shown = next;
    if (!upsertsDeferred) {
      Workflow.upsertTypedSearchAttributes(
          PaymentSearchAttributes.PAYMENT_STATE.valueSet(next.name()));
    }
    publishDetails();
  }

  /**
   * Says what the run waits for now (null: nothing), shown in the current details and the {@code
   * state} query.
   */
  @Override
  public void waitingFor(String what) {
    waitingFor = what;
    publishDetails();
  }

  /** The run's current details, Markdown (see {@link PaymentView#details}). */
  String details() {
    StringBuilder text =
        new StringBuilder("**").append(shown).append("** — payment ").append(paymentId);
    for (String cause : attention.withFixes()) {
      text.append("\n- ").append(cause);
    }
    if (waitingFor != null) {
      text.append("\n\nWaiting for: ").append(waitingFor);
    }
    return text.toString();
  }

  private void publishDetails() {
    Workflow.setCurrentDetails(details());
  }

  /** Adds an operator action's outcome to the log the {@code state} query shows. */
  void logOperator(String what, String who, boolean applied, String message) {
    operatorLog.add(what + " by " + who + ": " + (applied ? "APPLIED " : "REJECTED ") + message);
    if (!applied) {
      log.warn("payment {}: {} by {} refused: {}", paymentId, what, who, message);
    }
  }

  @Override
  public void published(String eventId) {
    publishedEventIds.add(eventId);
  }

  void granted(List<String> courseIds) {
    grantedCourseIds.addAll(courseIds);
  }

  /** The {@code state} query's answer, with {@code pendingEventIds} in the order to publish. */
  PaymentView view(List<String> pendingEventIds) {
    return new PaymentView(
        paymentId,
        shown,
        List.copyOf(publishedEventIds),
        List.copyOf(pendingEventIds),
        List.copyOf(grantedCourseIds),
        lastError,
        List.copyOf(operatorLog),
        attention.withFixes(),
        waitingFor,
        details());
  }
}

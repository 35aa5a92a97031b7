package dev.payrelay.workflows;

import io.temporal.workflow.Async;
import io.temporal.workflow.Workflow;
import java.time.Instant;
import org.slf4j.Logger;

/**
 * Tells one refund's story (see {@link RefundWorkflow}). One concern per class: {@link RefundStory}
 * (state, UI text), {@link RefundWatch} (submit, query, backoff), {@link RefundPublisher} (its
 * outbox events), {@link RefundDesk} (operator signals); this class orchestrates them and decides
 * when to continue as new.
 *
 * <p>Every run first reads the refund from the ledger: a refund already SUCCEEDED or FAILED is
 * never submitted or queried; the run publishes the events it is handed and ends. A run that saw
 * the refund unsettled and then SUCCEEDED ends only once the dispatcher handed it the refund's
 * PaymentRefunded event and it published it ({@link RefundEventOwed}). History: a refund queried at
 * the cap grows by about eight events per query, so a run continues as new past {@link
 * #HISTORY_LIMIT} events (or its input's {@code historyLimit}) between steps, carrying its counts,
 * the time it first saw the refund unsettled and its unpublished events.
 */
public class RefundWorkflowImpl implements RefundWorkflow {

  /**
   * A run continues as new past this many history events (or when the server suggests it), at a
   * point where no activity is under way, unless its input names another limit. Well under
   * Temporal's 10,240-event warning.
   */
  static final int HISTORY_LIMIT = 2_000;

  private static final Logger log = Workflow.getLogger(RefundWorkflowImpl.class);

  private final RefundStory story = new RefundStory();
  private final RefundPublisher publisher = new RefundPublisher(story);
  private final RefundWatch watch = new RefundWatch(story);
  private final RefundDesk desk = new RefundDesk(story, watch);
  private int historyLimit = HISTORY_LIMIT;
  private boolean refundedEventHandedOver;
  private boolean refundedEventOwed;

  @Override
  public RefundView run(RefundWorkflowInput input) {
    story.begin(input);
    historyLimit = input.historyLimitOrDefault();
    Workflow.upsertTypedSearchAttributes(
        RefundSearchAttributes.REFUND_ID.valueSet(input.refundId()),
        PaymentSearchAttributes.PAYMENT_ID.valueSet(input.paymentId()),
        PaymentSearchAttributes.TENANT_ID.valueSet(input.tenantId()),
        PaymentSearchAttributes.CHANNEL.valueSet(input.channel()),
        RefundSearchAttributes.REFUND_STATE.valueSet(story.shown().name()));
    if (input.queuedEvents() != null) {
      input.queuedEvents().forEach(this::offer);
    }
    watch.configure(input.channel(), input.queryPolicy());
    Async.procedure(() -> publisher.serve(input));
    Async.procedure(desk::serve);
    watch.read();
    boolean settled = watch.follow(this::continueAsNewDue);
    if (!settled) {
      continueAsNew(input);
    }
    refundedEventOwed =
        RefundEventOwed.owed(
            story.ledgerState(), story.unsettledInThisRun(), refundedEventHandedOver);
    story.waitingFor(
        refundedEventOwed
            ? "the dispatcher's hand-off of the refund's PaymentRefunded event, committed with"
                + " SUCCEEDED, to publish it"
            : "publishing the refund's events");
    Workflow.await(() -> ended() || continueAsNewDue());
    if (!ended()) {
      continueAsNew(input);
    }
    story.waitingFor(null);
    return state();
  }

  /** Whether nothing is left to do: events published, operator signals served, none owed. */
  private boolean ended() {
    return publisher.idle() && desk.idle() && !(refundedEventOwed && !refundedEventHandedOver);
  }

  /** Whether the history is long and nothing is in flight, so the next run loses nothing. */
  private boolean continueAsNewDue() {
    if (watch.busy() || publisher.inFlight() || !desk.idle()) {
      return false;
    }
    return Workflow.getInfo().isContinueAsNewSuggested()
        || Workflow.getInfo().getHistoryLength() > historyLimit;
  }

  private void continueAsNew(RefundWorkflowInput input) {
    log.info(
        "refund {}: continuing as new after {} history events",
        input.refundId(),
        Workflow.getInfo().getHistoryLength());
    publisher.stop();
    Long since = story.unsettledSince();
    Workflow.continueAsNew(
        input.next(
            story.queries(),
            story.failedQueries(),
            since == null ? null : Instant.ofEpochMilli(since).toString(),
            publisher.queued()));
  }

  @Override
  public void onOutboxEvent(OutboxEventSignal signal) {
    offer(signal);
    if (RefundLedgerWakeup.wakes(signal, watch.waiting())) {
      watch.readNow();
    }
  }

  private void offer(OutboxEventSignal signal) {
    publisher.offer(signal);
    if (RefundEventOwed.PAYMENT_REFUNDED.equals(signal.eventType())) {
      refundedEventHandedOver = true;
    }
  }

  @Override
  public void requery(RefundSignal signal) {
    desk.ask(RefundDesk.REQUERY, signal);
  }

  @Override
  public void acceptAsRefunded(RefundSignal signal) {
    desk.ask(RefundDesk.ACCEPT_AS_REFUNDED, signal);
  }

  @Override
  public void markFailed(RefundSignal signal) {
    desk.ask(RefundDesk.MARK_FAILED, signal);
  }

  @Override
  public RefundView state() {
    return story.view(publisher.pendingEventIds());
  }
}

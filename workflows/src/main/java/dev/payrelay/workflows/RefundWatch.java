package dev.payrelay.workflows;

import dev.payrelay.domain.failure.ChannelFailure;
import dev.payrelay.domain.failure.RefundFailure;
import dev.payrelay.workflows.activities.RefundActivities;
import dev.payrelay.workflows.activities.RefundAnswer;
import dev.payrelay.workflows.activities.RefundCallRequest;
import dev.payrelay.workflows.activities.RefundLedgerView;
import dev.payrelay.workflows.activities.SubmitRefundRequest;
import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.workflow.CancellationScope;
import io.temporal.workflow.Promise;
import io.temporal.workflow.TimerOptions;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.time.Instant;
import java.util.function.BooleanSupplier;

/**
 * Follows one refund at its channel until the ledger settles it: submits it once when REQUESTED,
 * then queries it by our refund number with the run's {@link RefundQueryPolicy} (capped exponential
 * backoff); a NOT_FOUND answer allows one resubmission with the same number (attempt 2), a second
 * one needs an operator; past the attention threshold the refund shows NEEDS_ATTENTION and is
 * queried at the cap. Runs on the workflow's main thread.
 */
final class RefundWatch {

  /** No such refund: never retried. */
  static final String REFUND_NOT_FOUND = RefundFailure.REFUND_NOT_FOUND.name();

  /**
   * A submission is idempotent by its {@code refund_submission} row, so its activity retries until
   * the database answers: a retry after the channel call returns the stored result or UNKNOWN.
   */
  private static final ActivityOptions SUBMIT_OPTIONS =
      DatabaseActivityOptions.untilTheDatabaseAnswers(
          // Two short transactions around one channel call with its own timeouts (5-10 s).
          Duration.ofSeconds(60), ChannelFailure.CHANNEL_REFUSED.name(), REFUND_NOT_FOUND);

  /** A query is cheap; a few quick retries, then the watch's own schedule takes over. */
  private static final ActivityOptions QUERY_OPTIONS =
      ActivityOptions.newBuilder()
          // One HTTP call with its own timeout, and a short transaction.
          .setStartToCloseTimeout(Duration.ofSeconds(30))
          .setRetryOptions(
              RetryOptions.newBuilder()
                  .setInitialInterval(Duration.ofSeconds(1))
                  .setBackoffCoefficient(2)
                  .setMaximumAttempts(3)
                  .setDoNotRetry(ChannelFailure.CHANNEL_REFUSED.name(), REFUND_NOT_FOUND)
                  .build())
          .build();

  /** Reads retry until the database answers; only a missing refund is permanent. */
  private static final ActivityOptions READ_OPTIONS =
      DatabaseActivityOptions.untilTheDatabaseAnswers(
          // One primary-key read and a count.
          Duration.ofSeconds(10), REFUND_NOT_FOUND);

  private final RefundActivities submits =
      Workflow.newActivityStub(RefundActivities.class, SUBMIT_OPTIONS);
  private final RefundActivities queries =
      Workflow.newActivityStub(RefundActivities.class, QUERY_OPTIONS);
  private final RefundActivities reads =
      Workflow.newActivityStub(RefundActivities.class, READ_OPTIONS);
  private final RefundStory story;
  private RefundQueryPolicy policy;
  private String channel;
  private boolean askNow;
  private boolean readNow;
  private boolean waiting;
  private boolean busy;

  RefundWatch(RefundStory story) {
    this.story = story;
  }

  /** The run's channel and query schedule; called once, before {@link #follow}. */
  void configure(String channelName, RefundQueryPolicy queryPolicy) {
    channel = channelName;
    policy = queryPolicy;
  }

  /** Reads the refund's standing in the ledger and shows it. */
  RefundLedgerView read() {
    RefundLedgerView view = reads.read(new RefundCallRequest(story.refundId()));
    story.ledger(view.state(), view.submissions());
    return view;
  }

  /** Whether an activity of this watch is under way (the run must not continue as new then). */
  boolean busy() {
    return busy;
  }

  /** Cuts the current wait short: an operator's requery, or a state the desk recorded. */
  void askNow() {
    askNow = true;
  }

  /** Whether the watch waits for its next query (a timer, no activity under way). */
  boolean waiting() {
    return waiting;
  }

  /**
   * Cuts the current wait short with a read of the ledger instead of a query: the ledger settled
   * the refund meanwhile ({@link RefundLedgerWakeup}).
   */
  void readNow() {
    readNow = true;
  }

  /**
   * Follows the refund until the ledger settles it, or returns early (false) when {@code
   * continueAsNewDue} says so between steps.
   *
   * @return true once settled
   */
  boolean follow(BooleanSupplier continueAsNewDue) {
    while (!story.settled()) {
      if (continueAsNewDue.getAsBoolean()) {
        return false;
      }
      if ("REQUESTED".equals(story.ledgerState()) && !story.hasCause(RefundStory.SUBMIT)) {
        submit(1);
        continue;
      }
      if (!pause()) {
        continue;
      }
      story.clear(RefundStory.SUBMIT);
      if ("REQUESTED".equals(story.ledgerState())) {
        continue;
      }
      query();
      checkAttention();
    }
    story.waitingFor(null);
    return true;
  }

  private void submit(int attempt) {
    busy = true;
    story.waitingFor(
        (attempt == 1
                ? "the channel's answer to the refund"
                : "the channel's answer to the one resubmission (same refund number)")
            + " at "
            + channel);
    try {
      RefundAnswer answer = submits.submit(new SubmitRefundRequest(story.refundId(), attempt));
      story.ledger(answer.refundState(), attempt);
      story.lastError(
          "UNKNOWN".equals(answer.status())
              ? "submission " + attempt + " unknown: " + answer.detail()
              : "FAILED".equals(answer.status()) ? answer.detail() : null);
    } catch (ActivityFailure e) {
      story.needsAttention(
          RefundStory.SUBMIT, "refund could not be submitted: " + ActivityFailures.reasonOf(e));
    } finally {
      busy = false;
    }
  }

  private void query() {
    busy = true;
    int number = story.queries() + 1;
    story.waitingFor("the channel's answer to query " + number + " at " + channel);
    try {
      RefundAnswer answer = queries.query(new RefundCallRequest(story.refundId()));
      story.queried(null);
      story.ledger(answer.refundState(), 0);
      if ("NOT_FOUND".equals(answer.status())) {
        notFound();
      } else {
        story.lastError("PENDING".equals(answer.status()) ? null : answer.detail());
      }
    } catch (ActivityFailure e) {
      story.queried("query " + number + " failed: " + ActivityFailures.reasonOf(e));
      story.showState();
    } finally {
      busy = false;
    }
  }

  /** NOT_FOUND: the one resubmission with the same number, or an operator after it. */
  private void notFound() {
    if (story.submissions() < 2) {
      story.lastError("the channel holds no refund with our number; resubmitting it once");
      submit(2);
      return;
    }
    story.needsAttention(
        RefundStory.NOT_FOUND_AGAIN,
        "the channel holds no refund with our number after the one resubmission");
  }

  /** Past the policy's threshold the refund needs an operator. */
  private void checkAttention() {
    Long since = story.unsettledSince();
    if (story.settled() || since == null) {
      return;
    }
    long unsettledFor = Workflow.currentTimeMillis() - since;
    if (unsettledFor >= policy.attentionAfterMillis()) {
      story.needsAttention(
          RefundStory.UNSETTLED,
          "refund still "
              + story.ledgerState()
              + " at "
              + channel
              + " "
              + Duration.ofMillis(unsettledFor).toHours()
              + " h after it was first unsettled ("
              + story.queries()
              + " queries, "
              + story.failedQueries()
              + " failed; last: "
              + story.lastError()
              + ")");
    }
  }

  /**
   * Waits the delay before the next query, or less when an operator asks now or the ledger settles;
   * says why in the current details and the timer's summary.
   *
   * @return whether the next step is due (false: the wait ended for a settled refund)
   */
  private boolean pause() {
    int next = story.queries() + 1;
    Duration delay =
        story.hasCause(RefundStory.UNSETTLED) || story.hasCause(RefundStory.SUBMIT)
            ? policy.maxInterval()
            : policy.delayBefore(next);
    long at = Workflow.currentTimeMillis() + delay.toMillis();
    story.nextQueryAt(at);
    story.waitingFor(waitText(next, delay, at));
    Promise<Void>[] timer = new Promise[1];
    CancellationScope scope =
        Workflow.newCancellationScope(
            () ->
                timer[0] =
                    Workflow.newTimer(
                        delay,
                        TimerOptions.newBuilder()
                            .setSummary(
                                "refund "
                                    + story.refundId()
                                    + ": query "
                                    + next
                                    + " after "
                                    + delay
                                    + " ("
                                    + story.ledgerState()
                                    + ")")
                            .build()));
    scope.run();
    waiting = true;
    Workflow.await(() -> timer[0].isCompleted() || askNow || readNow || story.settled());
    waiting = false;
    if (!timer[0].isCompleted()) {
      scope.cancel();
      try {
        timer[0].get();
      } catch (CanceledFailure expected) {
        // The wait was cut short on purpose.
      }
    }
    askNow = false;
    story.nextQueryAt(null);
    if (readNow) {
      readNow = false;
      readWhileFollowing();
    }
    return !story.settled();
  }

  /**
   * {@link #read()} between the watch's steps, as busy as a query (no continue-as-new meanwhile).
   */
  private void readWhileFollowing() {
    busy = true;
    story.waitingFor(
        "the ledger's standing of the refund, which its PaymentRefunded event says settled");
    try {
      read();
    } catch (ActivityFailure e) {
      // Nothing is lost: the next step's query reads the ledger before it asks the channel.
      story.showState();
    } finally {
      busy = false;
    }
  }

  private String waitText(int next, Duration delay, long at) {
    String since =
        story.unsettledSince() == null
            ? ""
            : " since " + Instant.ofEpochMilli(story.unsettledSince());
    return "Refund "
        + story.ledgerState().toLowerCase(java.util.Locale.ROOT)
        + " at "
        + channel
        + since
        + (story.lastError() == null ? "" : " (last: " + story.lastError() + ")")
        + "; asking again in "
        + delay.toSeconds()
        + "s at "
        + Instant.ofEpochMilli(at)
        + " (query "
        + next
        + ", "
        + story.failedQueries()
        + " failed so far); after "
        + policy.attentionAfter().toHours()
        + " h unsettled it needs an operator: send acceptAsRefunded or markFailed";
  }
}

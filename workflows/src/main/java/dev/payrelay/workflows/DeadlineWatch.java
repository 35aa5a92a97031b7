package dev.payrelay.workflows;

import static dev.payrelay.workflows.PaymentWorkflowState.AWAITING_PAYMENT;
import static dev.payrelay.workflows.PaymentWorkflowState.CLOSED;
import static dev.payrelay.workflows.PaymentWorkflowState.EXPIRED;
import static dev.payrelay.workflows.PaymentWorkflowState.PAID;

import dev.payrelay.workflows.activities.ChannelStatus;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;

/**
 * Watches a payment whose channel state is unknown until its deadline: after a grace period asks
 * the channel on the {@link ChannelQueryPolicy} schedule, closes the payment at the channel at the
 * deadline (bounded retries, then an {@link Attention#CLOSE} cause), then expires it, unless the
 * channel or the ledger says it settled. A failed call's outcome is unknown and never read as
 * "unpaid". Runs inside {@link PaymentWorkflowImpl}, on its own workflow thread; the activity calls
 * are {@link ChannelWatch}'s.
 *
 * <p>Under {@link SettledLifecycle} the watch ends only on a settled ledger: a channel's "paid"
 * that the ledger records as an exception (a wrong amount or currency, another account's
 * transaction) ends the queries (asking again says the same) but not the deadline. At the deadline
 * the payment is closed at the channel and expired; the ledger refuses the expiry while money the
 * channel reported is undecided (an open AMOUNT_MISMATCH, say), and the watch then waits for the
 * operator's decision ({@code MARK_FOR_REFUND} lets it expire, {@code ACCEPT_AS_PAID} settles it).
 * A close waits for an extension being recorded, and an extension is refused once the close began.
 */
final class DeadlineWatch {

  /**
   * The close at the deadline is retried on the query schedule (doubling, capped) this many times;
   * then the payment needs an operator (it stays PENDING: its channel state is unknown).
   */
  static final int MAX_CLOSE_ATTEMPTS = 8;

  /**
   * The ledger outcomes of a channel's "paid" that settle the payment: it is PAID by this answer
   * (CONFIRMED; a retried activity's DUPLICATE reads as CONFIRMED), or it was no longer PENDING
   * (PAID by another transaction, or CLOSED/EXPIRED). Every other outcome is an exception for
   * review on a payment that stays PENDING ({@code CallbackOutcome}).
   */
  private static final Set<String> SETTLING_OUTCOMES =
      Set.of("CONFIRMED", "DUPLICATE", "DOUBLE_PAYMENT", "PAID_AFTER_CLOSE");

  private static final Logger log = Workflow.getLogger(DeadlineWatch.class);

  private final ChannelWatch watch;
  private final PaymentStory story;
  private final QueryAttention queryAttention;
  private Instant deadline;
  private boolean requeryAsked;
  private boolean answered;
  private boolean busy;
  private int closeFailures;
  private int lifecycle = Workflow.DEFAULT_VERSION;
  private boolean settledLifecycle;
  // The channel said paid and the ledger recorded it as an exception: no more queries.
  private boolean channelReportedMoney;
  private boolean closing;
  private boolean extensionInFlight;
  private boolean decided;
  private String paymentId;
  private String channel;

  DeadlineWatch(ChannelWatch watch, PaymentStory story) {
    this.watch = watch;
    this.story = story;
    this.queryAttention = new QueryAttention(story);
  }

  /** The payment's deadline, or null while none was set (no watch, no extension). */
  Instant deadline() {
    return deadline;
  }

  /** Sets the deadline: at the start of a watched run, or by an operator's applied extension. */
  void extendTo(Instant next) {
    deadline = next;
  }

  /**
   * Before the run continues as new: an open {@link QueryAttention} cause is closed, since the next
   * run counts failed queries from zero (its search attribute would otherwise be carried over).
   */
  void beforeContinueAsNew() {
    queryAttention.clear();
  }

  /** An operator's applied {@code requery}: ask the channel now. */
  void requery() {
    requeryAsked = true;
  }

  /** Whether a channel or ledger call is in flight. */
  boolean busy() {
    return busy;
  }

  /**
   * Whether the close at the deadline began ({@link SettledLifecycle}): from then on an extension
   * cannot reopen the payment, which the channel may already have closed.
   */
  boolean closing() {
    return closing;
  }

  /**
   * An operator's extension is being recorded ({@code true}) or was ({@code false}); a close at the
   * deadline waits for it, so an applied extension moves the deadline before anything closes.
   */
  void extensionInFlight(boolean inFlight) {
    extensionInFlight = inFlight;
  }

  /**
   * An operator's resolution was applied ({@link SettledLifecycle}): an expiry the ledger refused
   * while the money the channel reported was undecided is tried again.
   */
  void resolved() {
    decided = true;
  }

  /**
   * Watches until the payment settles; the deadline must be set. {@code lifecycle} is the run's
   * {@code ledger-first} version, {@code settledLifecycle} whether {@link SettledLifecycle}
   * applies.
   */
  void watch(PaymentWorkflowInput input, int lifecycle, boolean settledLifecycle) {
    watchUntilSettled(input, lifecycle, settledLifecycle);
    queryAttention.clear();
  }

  private void watchUntilSettled(
      PaymentWorkflowInput input, int lifecycle, boolean settledLifecycle) {
    this.lifecycle = lifecycle;
    this.settledLifecycle = settledLifecycle;
    paymentId = input.paymentId();
    channel = input.channel();
    ChannelQueryPolicy policy = input.queryPolicy();
    // The grace never outlasts the deadline: an unpaid payment expires on time.
    Duration grace =
        min(Duration.ofMillis(policy.graceMillis()), Duration.between(now(), deadline));
    await(
        grace.isNegative() ? Duration.ZERO : grace,
        () -> settled() || requeryAsked,
        "grace before the first channel query");
    int queries = 0;
    while (!settled()) {
      if (!now().isBefore(deadline)) {
        // Past the deadline the payment is closed, not queried: a failing close is its own cause.
        queryAttention.clear();
        if (closeAtDeadline(policy)) {
          return;
        }
        continue;
      }
      if (channelReportedMoney && !requeryAsked) {
        Instant seen = deadline;
        await(
            Duration.between(now(), deadline),
            () -> settled() || requeryAsked || !deadline.equals(seen),
            "the channel reported money the ledger did not accept; closing and expiring at the"
                + " deadline "
                + deadline);
        continue;
      }
      requeryAsked = false;
      busy = true;
      ChannelStatus answer = watch.query(paymentId, channel);
      applyChannelAnswer(answer);
      busy = false;
      queryAttention.after(paymentId, answer == null ? watch.lastFailure() : null);
      queries++;
      Instant seen = deadline;
      Duration wait = min(policy.delayAfter(queries), Duration.between(now(), deadline));
      await(
          wait,
          () -> settled() || requeryAsked || !deadline.equals(seen),
          "next channel query (" + (queries + 1) + ") before the deadline " + deadline);
    }
  }

  /**
   * Returns true when the payment is settled; false when the deadline moved or the close failed.
   */
  private boolean closeAtDeadline(ChannelQueryPolicy policy) {
    if (settledLifecycle) {
      // An extension being recorded decides first: applied, it moves the deadline.
      Workflow.await(() -> !extensionInFlight);
      if (now().isBefore(deadline)) {
        return false;
      }
      closing = true;
    }
    try {
      return closeAndExpire(policy);
    } finally {
      closing = false;
    }
  }

  private boolean closeAndExpire(ChannelQueryPolicy policy) {
    busy = true;
    ChannelStatus closed = watch.close(paymentId, channel);
    busy = false;
    if (closed == null) {
      closing = false;
      return afterFailedClose(policy);
    }
    closeFailures = 0;
    if (lifecycle >= 1 && closed.ledgerStatus() != null) {
      applyLedgerStatus(closed.ledgerStatus());
      return true;
    }
    if (closed.paid()) {
      applyChannelAnswer(closed);
      if (!settledLifecycle || settled()) {
        return true;
      }
    }
    busy = true;
    String status = watch.expire(paymentId);
    busy = false;
    if (settledLifecycle && "PENDING".equals(status)) {
      return afterRefusedExpiry();
    }
    answered = true;
    if ("EXPIRED".equals(status)) {
      story.setBase(EXPIRED);
    } else if (lifecycle >= 1) {
      applyLedgerStatus(status);
    }
    return true;
  }

  /**
   * The ledger kept the payment PENDING: money the channel reported is undecided (its exception
   * shows as NEEDS_ATTENTION). Waits for an operator's resolution, a new deadline or the payment to
   * settle; then the loop closes and expires again, or stops.
   */
  private boolean afterRefusedExpiry() {
    log.info(
        "payment {}: not expired at its deadline; the channel reported money that waits for an"
            + " operator's decision (MARK_FOR_REFUND or ACCEPT_AS_PAID)",
        paymentId);
    Instant seen = deadline;
    decided = false;
    closing = false;
    story.waitingFor(
        "an operator's decision on the money the channel reported (resolve MARK_FOR_REFUND to"
            + " give it back, then the payment expires; or ACCEPT_AS_PAID); the deadline "
            + deadline
            + " passed");
    Workflow.await(() -> settled() || decided || !deadline.equals(seen));
    story.waitingFor(null);
    return settled();
  }

  /**
   * Waits before the next close: on the query schedule, doubling per failure (version 1; before it,
   * every 30 s forever). After {@link #MAX_CLOSE_ATTEMPTS} the payment needs an operator, and the
   * watch waits for a {@code requery}, a new deadline or the payment to settle.
   */
  private boolean afterFailedClose(ChannelQueryPolicy policy) {
    Instant seen = deadline;
    if (lifecycle < 1) {
      Workflow.await(policy.delayAfter(1), () -> settled() || !deadline.equals(seen));
      return settled();
    }
    closeFailures++;
    if (closeFailures < MAX_CLOSE_ATTEMPTS) {
      await(
          policy.delayAfter(closeFailures),
          () -> settled() || !deadline.equals(seen),
          "close at the channel again (it failed " + closeFailures + " time(s))");
      return settled();
    }
    story.needsAttention(
        Attention.CLOSE,
        "close at the channel failed "
            + closeFailures
            + " times; the payment stays PENDING until a requery, a new deadline or an operator's"
            + " resolve");
    requeryAsked = false;
    story.waitingFor(
        "an operator: the close at the channel failed "
            + closeFailures
            + " times ("
            + watch.lastFailure()
            + "); send requery once the channel answers, extendDeadline, or resolve");
    Workflow.await(() -> settled() || requeryAsked || !deadline.equals(seen));
    story.waitingFor(null);
    closeFailures = 0;
    story.clear(Attention.CLOSE);
    story.showState();
    return settled();
  }

  private void applyChannelAnswer(ChannelStatus status) {
    if (lifecycle >= 1 && status != null && status.ledgerStatus() != null) {
      applyLedgerStatus(status.ledgerStatus());
      return;
    }
    if (status == null || !status.paid()) {
      return;
    }
    busy = true;
    String outcome = watch.confirm(paymentId, status);
    busy = false;
    log.info("payment {}: channel says PAID; ledger outcome {}", paymentId, outcome);
    if (!settledLifecycle || SETTLING_OUTCOMES.contains(outcome)) {
      answered = true;
    } else {
      // An exception for review (its event makes the run NEEDS_ATTENTION); still PENDING.
      channelReportedMoney = true;
    }
  }

  /** The ledger settled the payment meanwhile (a callback, an operator): stop watching. */
  private void applyLedgerStatus(String status) {
    answered = true;
    switch (status) {
      case "PAID" -> {
        if (story.base() == AWAITING_PAYMENT) {
          story.setBase(PAID);
        }
        story.confirm();
      }
      case "CLOSED" -> story.setBase(CLOSED);
      case "EXPIRED" -> story.setBase(EXPIRED);
      default -> log.info("payment {}: ledger says {}", paymentId, status);
    }
  }

  /** Nothing left to find out: confirmed, answered by the ledger, or no longer awaiting payment. */
  private boolean settled() {
    return answered || story.confirmed() || story.base() != AWAITING_PAYMENT;
  }

  /**
   * A wait whose timer is cancelled when no longer needed ({@link SettledLifecycle#await}), shown
   * with {@code summary} on the timer and in the run's current details.
   */
  private void await(Duration timeout, Supplier<Boolean> condition, String summary) {
    String failure = watch.lastFailure();
    story.waitingFor(
        summary
            + ", at "
            + now().plus(timeout.isNegative() ? Duration.ZERO : timeout)
            + " at the latest"
            + (failure == null ? "" : "; the last channel call failed: " + failure));
    SettledLifecycle.await(
        timeout, condition, settledLifecycle, "payment " + paymentId + ": " + summary);
    story.waitingFor(null);
  }

  private static Instant now() {
    return Instant.ofEpochMilli(Workflow.currentTimeMillis());
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }
}

package dev.payrelay.workflows;

import static dev.payrelay.workflows.PaymentWorkflowState.AWAITING_PAYMENT;
import static dev.payrelay.workflows.PaymentWorkflowState.CLOSED;
import static dev.payrelay.workflows.PaymentWorkflowState.EXPIRED;
import static dev.payrelay.workflows.PaymentWorkflowState.PAID;

import dev.payrelay.workflows.activities.ChannelStatus;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;

/**
 * Watches a payment whose channel state is unknown until its deadline: after a grace period asks
 * the channel on the {@link ChannelQueryPolicy} schedule, closes the payment at the channel at the
 * deadline (bounded retries, then an {@link Attention#CLOSE} cause), then expires it, unless the
 * channel or the ledger says it settled. A failed call's outcome is unknown and never read as
 * "unpaid". Runs inside {@link PaymentWorkflowImpl}, on its own workflow thread; the activity calls
 * are {@link ChannelWatch}'s.
 */
final class DeadlineWatch {

  /**
   * The close at the deadline is retried on the query schedule (doubling, capped) this many times;
   * then the payment needs an operator (it stays PENDING: its channel state is unknown).
   */
  static final int MAX_CLOSE_ATTEMPTS = 8;

  private static final Logger log = Workflow.getLogger(DeadlineWatch.class);

  private final ChannelWatch watch;
  private final PaymentStory story;
  private Instant deadline;
  private boolean requeryAsked;
  private boolean answered;
  private boolean busy;
  private int closeFailures;
  private int lifecycle = Workflow.DEFAULT_VERSION;
  private String paymentId;
  private String channel;

  DeadlineWatch(ChannelWatch watch, PaymentStory story) {
    this.watch = watch;
    this.story = story;
  }

  /** The payment's deadline, or null while none was set (no watch, no extension). */
  Instant deadline() {
    return deadline;
  }

  /** Sets the deadline: at the start of a watched run, or by an operator's applied extension. */
  void extendTo(Instant next) {
    deadline = next;
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
   * Watches until the payment settles; the deadline must be set. {@code lifecycle} is the run's
   * {@code ledger-first} version.
   */
  void watch(PaymentWorkflowInput input, int lifecycle) {
    this.lifecycle = lifecycle;
    paymentId = input.paymentId();
    channel = input.channel();
    ChannelQueryPolicy policy = input.queryPolicy();
    // The grace never outlasts the deadline: an unpaid payment expires on time.
    Duration grace =
        min(Duration.ofMillis(policy.graceMillis()), Duration.between(now(), deadline));
    Workflow.await(grace.isNegative() ? Duration.ZERO : grace, () -> settled() || requeryAsked);
    int queries = 0;
    while (!settled()) {
      if (!now().isBefore(deadline)) {
        if (closeAtDeadline(policy)) {
          return;
        }
        continue;
      }
      requeryAsked = false;
      busy = true;
      applyChannelAnswer(watch.query(paymentId, channel));
      busy = false;
      queries++;
      Instant seen = deadline;
      Duration wait = min(policy.delayAfter(queries), Duration.between(now(), deadline));
      Workflow.await(wait, () -> settled() || requeryAsked || !deadline.equals(seen));
    }
  }

  /**
   * Returns true when the payment is settled; false when the deadline moved or the close failed.
   */
  private boolean closeAtDeadline(ChannelQueryPolicy policy) {
    busy = true;
    ChannelStatus closed = watch.close(paymentId, channel);
    busy = false;
    if (closed == null) {
      return afterFailedClose(policy);
    }
    closeFailures = 0;
    if (lifecycle >= 1 && closed.ledgerStatus() != null) {
      applyLedgerStatus(closed.ledgerStatus());
      return true;
    }
    if (closed.paid()) {
      applyChannelAnswer(closed);
      return true;
    }
    busy = true;
    String status = watch.expire(paymentId);
    busy = false;
    answered = true;
    if ("EXPIRED".equals(status)) {
      story.setBase(EXPIRED);
    } else if (lifecycle >= 1) {
      applyLedgerStatus(status);
    }
    return true;
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
      Workflow.await(policy.delayAfter(closeFailures), () -> settled() || !deadline.equals(seen));
      return settled();
    }
    story.needsAttention(
        Attention.CLOSE,
        "close at the channel failed "
            + closeFailures
            + " times; the payment stays PENDING until a requery, a new deadline or an operator's"
            + " resolve");
    requeryAsked = false;
    Workflow.await(() -> settled() || requeryAsked || !deadline.equals(seen));
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
    answered = true;
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

  private static Instant now() {
    return Instant.ofEpochMilli(Workflow.currentTimeMillis());
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }
}

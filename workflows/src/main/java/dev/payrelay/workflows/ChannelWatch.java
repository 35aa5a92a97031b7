package dev.payrelay.workflows;

import dev.payrelay.domain.failure.ChannelFailure;
import dev.payrelay.workflows.activities.ChannelActivities;
import dev.payrelay.workflows.activities.ChannelCallRequest;
import dev.payrelay.workflows.activities.ChannelStatus;
import dev.payrelay.workflows.activities.ConfirmFromChannelRequest;
import dev.payrelay.workflows.activities.ExpireRequest;
import dev.payrelay.workflows.activities.LedgerActivities;
import dev.payrelay.workflows.activities.LedgerView;
import dev.payrelay.workflows.activities.OperatorRequest;
import dev.payrelay.workflows.activities.OperatorRequestResult;
import dev.payrelay.workflows.activities.ReadPaymentRequest;
import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.util.Set;
import org.slf4j.Logger;

/**
 * The activity calls a payment's workflow makes while the channel's word is missing: status
 * queries, the close at the deadline, and the ledger transactions that apply their answers.
 */
final class ChannelWatch {

  /**
   * Tries per channel call: three ride out a blip; a longer outage waits for the watch loop's next
   * scheduled query or close.
   */
  static final int CHANNEL_ATTEMPTS = 3;

  /** A query is cheap; a few quick retries, then the watch loop's own schedule takes over. */
  private static final ActivityOptions CHANNEL_OPTIONS =
      ActivityOptions.newBuilder()
          // One HTTP call with its own 5 s timeout.
          .setStartToCloseTimeout(Duration.ofSeconds(15))
          .setRetryOptions(
              RetryOptions.newBuilder()
                  .setInitialInterval(Duration.ofSeconds(1))
                  .setBackoffCoefficient(2)
                  .setMaximumAttempts(CHANNEL_ATTEMPTS)
                  .setDoNotRetry(ChannelFailure.CHANNEL_REFUSED.name())
                  .build())
          .build();

  /** Ledger writes must not be lost to an outage: retried until the database answers. */
  private static final ActivityOptions LEDGER_OPTIONS =
      DatabaseActivityOptions.untilTheDatabaseAnswers(
          // One short transaction.
          Duration.ofSeconds(30));

  /** One primary-key read; a local attempt slower than this hands the read to the activity. */
  private static final Duration READ_TIMEOUT = Duration.ofSeconds(5);

  private static final Logger log = Workflow.getLogger(ChannelWatch.class);

  private final ChannelActivities channel =
      Workflow.newActivityStub(ChannelActivities.class, CHANNEL_OPTIONS);
  private final LedgerActivities ledger =
      Workflow.newActivityStub(LedgerActivities.class, LEDGER_OPTIONS);
  private String lastFailure;
  private final LedgerActivities localLedger =
      Workflow.newLocalActivityStub(LedgerActivities.class, LocalFirst.oneAttempt(READ_TIMEOUT));

  /**
   * What the ledger says about the payment now (retried until the database answers): a local
   * attempt first when {@code localFirst} (the run's {@link LocalFirst} version is current).
   */
  LedgerView read(String paymentId, boolean localFirst) {
    ReadPaymentRequest request = new ReadPaymentRequest(paymentId);
    if (!localFirst) {
      return ledger.read(request);
    }
    return LocalFirst.call(
        "read payment " + paymentId,
        () -> localLedger.read(request),
        () -> ledger.read(request),
        Set.of());
  }

  /** The channel's answer, or null when the call failed (its outcome is unknown, not "unpaid"). */
  ChannelStatus query(String paymentId, String channelName) {
    try {
      ChannelStatus answer = channel.query(new ChannelCallRequest(paymentId, channelName));
      lastFailure = null;
      return answer;
    } catch (ActivityFailure e) {
      log.warn("payment {}: query failed, state still unknown: {}", paymentId, e.getCause());
      lastFailure = "query: " + ActivityFailures.reasonOf(e);
      return null;
    }
  }

  /** The channel's state after a close, or null when the call failed (outcome unknown). */
  ChannelStatus close(String paymentId, String channelName) {
    try {
      ChannelStatus answer = channel.close(new ChannelCallRequest(paymentId, channelName));
      lastFailure = null;
      return answer;
    } catch (ActivityFailure e) {
      log.warn("payment {}: close failed, state still unknown: {}", paymentId, e.getCause());
      lastFailure = "close: " + ActivityFailures.reasonOf(e);
      return null;
    }
  }

  /** Why the last channel call failed, or null when it answered (or none was made). */
  String lastFailure() {
    return lastFailure;
  }

  /** Applies a PAID answer through the ledger; returns the outcome name. */
  String confirm(String paymentId, ChannelStatus paid) {
    return ledger.confirmFromChannel(
        new ConfirmFromChannelRequest(
            paymentId, paid.channelTxnId(), paid.amountMinor(), paid.currency(), "QUERY"));
  }

  /** Marks the payment EXPIRED; returns its status afterwards. */
  String expire(String paymentId) {
    return ledger.expire(new ExpireRequest(paymentId));
  }

  /** Audits (and for a valid extension applies) an operator request. */
  OperatorRequestResult operatorRequest(OperatorRequest request) {
    return ledger.operatorRequest(request);
  }
}

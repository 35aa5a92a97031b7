package dev.payrelay.activities;

import dev.payrelay.domain.Money;
import dev.payrelay.domain.RefundState;
import dev.payrelay.domain.channel.ChannelException;
import dev.payrelay.domain.channel.ChannelRefundRequest;
import dev.payrelay.domain.channel.ChannelRefundResult;
import dev.payrelay.domain.channel.ChannelRegistry;
import dev.payrelay.domain.channel.PaymentChannel;
import dev.payrelay.domain.crash.CrashPoint;
import dev.payrelay.domain.crash.CrashPoints;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.ledger.refund.RefundOutcome;
import dev.payrelay.ledger.refund.RefundOutcomes;
import dev.payrelay.ledger.refund.RefundRefused;
import dev.payrelay.ledger.refund.RefundRow;
import dev.payrelay.ledger.refund.RefundStore;
import dev.payrelay.ledger.refund.RefundSubmissions;
import dev.payrelay.ledger.refund.Submission;
import dev.payrelay.ledger.refund.SubmissionResult;
import dev.payrelay.workflows.activities.RefundActivities;
import dev.payrelay.workflows.activities.RefundAnswer;
import dev.payrelay.workflows.activities.RefundCallRequest;
import dev.payrelay.workflows.activities.RefundLedgerView;
import dev.payrelay.workflows.activities.RefundResolveRequest;
import dev.payrelay.workflows.activities.RefundResolveResult;
import dev.payrelay.workflows.activities.SubmitRefundRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The refund workflow's activities over the ledger's refund classes and the channel adapters. The
 * refund is sent and queried through the merchant account its payment was created with ({@link
 * ChannelRegistry#forMerchant}), exactly as {@link ChannelActivitiesImpl} queries the payment;
 * submit-once is {@link RefundSubmissions}' (a retry never calls the channel again); operator
 * signals go to {@link RefundOperatorDesk}.
 */
public final class RefundActivitiesImpl implements RefundActivities {

  private static final Logger log = LoggerFactory.getLogger(RefundActivitiesImpl.class);

  private final MerchantRefunds merchants;
  private final RefundStore refunds;
  private final RefundSubmissions submissions;
  private final RefundOutcomes outcomes;
  private final RefundOperatorDesk desk;
  private final CrashPoints crashPoints;

  /**
   * Activities over the channels' merchant accounts and the ledger's {@code payments}, {@code
   * refunds}, {@code submissions} and {@code outcomes}; operator signals through {@code desk}. They
   * pass {@link CrashPoint#REFUND_SUBMIT_AFTER_ANSWER} once the channel answered a submission and
   * before the answer is recorded, and {@link CrashPoint#REFUND_SUCCEEDED_AFTER_COMMIT} once a
   * submission's or a query's answer left the refund SUCCEEDED in the ledger, with its
   * PaymentRefunded outbox row.
   */
  public RefundActivitiesImpl(
      ChannelRegistry channels,
      PaymentStore payments,
      RefundStore refunds,
      RefundSubmissions submissions,
      RefundOutcomes outcomes,
      RefundOperatorDesk desk,
      CrashPoints crashPoints) {
    this.merchants = new MerchantRefunds(channels, payments);
    this.refunds = refunds;
    this.submissions = submissions;
    this.outcomes = outcomes;
    this.desk = desk;
    this.crashPoints = crashPoints;
  }

  @Override
  public RefundLedgerView read(RefundCallRequest request) {
    RefundRow refund = refund(request.refundId());
    return new RefundLedgerView(
        refund.refundId(),
        refund.state().name(),
        refund.channelRefundId(),
        refund.failureReason(),
        submissions.attempts(refund.refundId()));
  }

  @Override
  public RefundAnswer submit(SubmitRefundRequest request) {
    RefundRow refund = refund(request.refundId());
    PaymentRow payment = merchants.payment(refund);
    // Resolved before anything commits: a refund we cannot send stays as it is.
    PaymentChannel adapter = merchants.adapter(payment);
    ChannelRefundRequest toSend = channelRequest(refund, payment);
    Submission begun = submissions.begin(refund.refundId(), request.attempt());
    if (!begun.fresh()) {
      log.info(
          "refund {}: submission {} found {} ({}); the channel is not called again",
          refund.refundId(),
          request.attempt(),
          begun.answered() ? begun.result() : "unanswered",
          begun.refundState());
      return answer(begun, false);
    }
    Sent sent = send(adapter, toSend, request.attempt());
    log.info(
        "refund {}: submission {} to {} answered {} {}",
        refund.refundId(),
        request.attempt(),
        payment.channel(),
        sent.result(),
        sent.detail() == null ? "" : sent.detail());
    crashPoints.reach(CrashPoint.REFUND_SUBMIT_AFTER_ANSWER);
    Submission recorded =
        submissions.record(
            refund.refundId(),
            request.attempt(),
            sent.result(),
            sent.channelRefundId(),
            sent.detail());
    if (recorded.refundState() == RefundState.SUCCEEDED) {
      crashPoints.reach(CrashPoint.REFUND_SUCCEEDED_AFTER_COMMIT);
    }
    return answer(recorded, true);
  }

  @Override
  public RefundAnswer query(RefundCallRequest request) {
    RefundRow refund = refund(request.refundId());
    if (refund.state().isFinal()) {
      return settled(refund);
    }
    ChannelRefundResult r;
    try {
      r = merchants.ask(refund);
    } catch (ChannelException e) {
      throw ActivityFailures.channel(e);
    }
    log.info("refund {}: query answered {} {}", refund.refundId(), r.status(), r.channelRefundId());
    String state = apply(refund.refundId(), r);
    return new RefundAnswer(r.status().name(), r.channelRefundId(), r.failureReason(), state, true);
  }

  @Override
  public RefundResolveResult resolve(RefundResolveRequest request) {
    return desk.resolve(request);
  }

  /** Applies a query's answer to the ledger; returns the refund's state afterwards. */
  private String apply(String refundId, ChannelRefundResult r) {
    try {
      return switch (r.status()) {
        case PENDING -> outcomes.pending(refundId).refund().state().name();
        case SUCCEEDED ->
            r.channelRefundId() == null || r.channelRefundId().isBlank()
                ? refund(refundId).state().name()
                : succeeded(refundId, r.channelRefundId());
        case FAILED ->
            outcomes.failed(refundId, reasonOf(r.failureReason())).refund().state().name();
        case NOT_FOUND -> refund(refundId).state().name();
      };
    } catch (RefundRefused e) {
      if (e.reason() != RefundRefused.Reason.OUTCOME_CONFLICT) {
        throw e;
      }
      log.error("refund {}: the channel's answer {} contradicts the ledger", refundId, r.status());
      return refund(refundId).state().name();
    }
  }

  /** Records a query's SUCCEEDED; returns the refund's state afterwards. */
  private String succeeded(String refundId, String channelRefundId) {
    RefundOutcome outcome = outcomes.succeeded(refundId, channelRefundId);
    if (outcome.applied()) {
      crashPoints.reach(CrashPoint.REFUND_SUCCEEDED_AFTER_COMMIT);
    }
    return outcome.refund().state().name();
  }

  /**
   * The channel's answer to the submit, as a result to store; never thrown. A refusal that is not
   * retryable fails a first submission (its request's shape was refused before the channel held a
   * refund), but not the resubmission (attempt 2): the same request went out unanswered before, so
   * a refusal now is no evidence the first one made no refund, and the result stays UNKNOWN for the
   * run's queries and, past them, an operator.
   */
  private static Sent send(PaymentChannel adapter, ChannelRefundRequest toSend, int attempt) {
    try {
      ChannelRefundResult r = adapter.refund(toSend);
      return switch (r.status()) {
        case SUCCEEDED ->
            r.channelRefundId() == null || r.channelRefundId().isBlank()
                ? new Sent(SubmissionResult.UNKNOWN, null, "answered SUCCEEDED without a refund id")
                : new Sent(SubmissionResult.SUCCEEDED, r.channelRefundId(), null);
        case PENDING -> new Sent(SubmissionResult.PENDING, r.channelRefundId(), null);
        case FAILED ->
            new Sent(SubmissionResult.FAILED, r.channelRefundId(), reasonOf(r.failureReason()));
        case NOT_FOUND ->
            new Sent(SubmissionResult.UNKNOWN, null, "answered NOT_FOUND to the submit itself");
      };
    } catch (ChannelException e) {
      // Retryable: a timeout, 5xx or unreadable answer, so the channel may hold the refund. Not
      // retryable: this request was refused, which settles only a first submission (see above).
      return new Sent(
          e.retryable() || attempt > 1 ? SubmissionResult.UNKNOWN : SubmissionResult.FAILED,
          null,
          e.getMessage());
    } catch (RuntimeException e) {
      // An adapter defect after the request may have left: as unknown as a timeout.
      return new Sent(SubmissionResult.UNKNOWN, null, String.valueOf(e));
    }
  }

  private record Sent(SubmissionResult result, String channelRefundId, String detail) {}

  private static String reasonOf(String failureReason) {
    return failureReason == null || failureReason.isBlank()
        ? "failed at the channel, which gave no reason"
        : failureReason;
  }

  private static RefundAnswer answer(Submission s, boolean called) {
    return new RefundAnswer(
        s.result().name(), s.channelRefundId(), s.detail(), s.refundState().name(), called);
  }

  private static RefundAnswer settled(RefundRow refund) {
    return new RefundAnswer(
        refund.state().name(),
        refund.channelRefundId(),
        refund.failureReason(),
        refund.state().name(),
        false);
  }

  /**
   * What the channel is asked to refund: the refund's own capture when it names one (a
   * DOUBLE_PAYMENT's second charge, {@link RefundRow#ofOtherCapture}), else the payment's.
   */
  private static ChannelRefundRequest channelRequest(RefundRow refund, PaymentRow payment) {
    Money captured =
        refund.txnAmountMinor() != null
            ? Money.ofMinor(refund.txnAmountMinor(), refund.amount().currencyCode())
            : payment.amount();
    return new ChannelRefundRequest(
        payment.paymentId(),
        MerchantRefunds.txnOf(refund, payment),
        refund.refundNo(),
        refund.amount(),
        captured,
        refund.reason());
  }

  private RefundRow refund(String refundId) {
    return refunds.find(refundId).orElseThrow(() -> ActivityFailures.refundNotFound(refundId));
  }
}

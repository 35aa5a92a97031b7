package dev.payrelay.ledger.refund;

import dev.payrelay.domain.RefundState;

/**
 * One {@code refund_submission} row (V18) with its refund's state.
 *
 * @param refundId the refund
 * @param attempt 1 for the first submission, 2 for the one resubmission after NOT_FOUND
 * @param result what the submission came to; {@link SubmissionResult#UNKNOWN} while no answer is
 *     recorded
 * @param answered whether the channel call's answer was recorded ({@code result} not NULL)
 * @param channelRefundId the channel's refund id from its answer, else null
 * @param detail the channel's words (a failure reason, the error of an unknown result), else null
 * @param refundState the refund's state after this submission's transaction
 * @param fresh true when this call wrote the row (the channel is to be called now); false when it
 *     existed (the channel was called before, or may have been: never call it again)
 */
public record Submission(
    String refundId,
    int attempt,
    SubmissionResult result,
    boolean answered,
    String channelRefundId,
    String detail,
    RefundState refundState,
    boolean fresh) {}

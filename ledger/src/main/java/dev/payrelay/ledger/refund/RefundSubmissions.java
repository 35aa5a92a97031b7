package dev.payrelay.ledger.refund;

import static dev.payrelay.ledger.db.generated.Tables.REFUND;
import static dev.payrelay.ledger.db.generated.Tables.REFUND_SUBMISSION;

import dev.payrelay.domain.RefundState;
import dev.payrelay.domain.RefundTransition;
import dev.payrelay.ledger.db.SqlTime;
import dev.payrelay.ledger.db.Text;
import dev.payrelay.ledger.db.Transactions;
import dev.payrelay.ledger.db.generated.tables.records.RefundSubmissionRecord;
import dev.payrelay.ledger.refund.RefundOutcomes.Locked;
import dev.payrelay.ledger.refund.RefundRefused.Reason;
import java.util.Map;
import java.util.Optional;
import org.jooq.DSLContext;

/**
 * Submit-once for refunds (issue 28 item 2): the {@code refund_submission} rows (V18) that let a
 * refund be sent to its channel at most once per attempt, however often the activity that sends it
 * is retried or its worker crashes. {@link #begin} commits the refund UNKNOWN ({@link
 * RefundTransition#LOSE_TRACK}) with the attempt's row before the channel is called; {@link
 * #record} then stores the channel's answer on that row and applies it to the refund in one
 * transaction. Each transaction locks the refund's payment, then the refund, like {@link
 * RefundOutcomes}.
 */
public final class RefundSubmissions {

  /** The first submission. */
  public static final int FIRST = 1;

  /** The one resubmission, with the same refund number, that a NOT_FOUND query answer allows. */
  public static final int RESUBMISSION = 2;

  private static final String NO_REASON = "failed at the channel, which gave no reason";

  private final DSLContext dsl;
  private final RefundOutcomes outcomes;

  /** Submissions over {@code dsl}, whose answers are applied through {@code outcomes}. */
  public RefundSubmissions(DSLContext dsl, RefundOutcomes outcomes) {
    this.dsl = dsl;
    this.outcomes = outcomes;
  }

  /**
   * Starts submission {@code attempt} of the refund, or finds it started before.
   *
   * <p>When the attempt has no row and may be made (attempt 1 of a REQUESTED refund; attempt 2 of
   * an UNKNOWN or SUBMITTED refund whose attempt 1 exists), one transaction moves the refund to
   * UNKNOWN and writes the row: the answer is {@link Submission#fresh()} and the caller calls the
   * channel once. Otherwise nothing is written and the answer is not fresh: the attempt's stored
   * row (its result, or UNKNOWN when its answer was never recorded), or, for a refund with no such
   * row that may not be submitted (already settled by a callback, an operator or the statement; or
   * not REQUESTED), the refund's own state as the result (SUCCEEDED, FAILED, else UNKNOWN).
   *
   * @throws RefundRefused NOT_FOUND for no such refund; INVALID for an attempt other than 1 or 2,
   *     or attempt 2 before attempt 1
   */
  public Submission begin(String refundId, int attempt) {
    if (attempt != FIRST && attempt != RESUBMISSION) {
      throw new RefundRefused(
          Reason.INVALID, "submission attempt must be 1 or 2, got " + attempt + " for " + refundId);
    }
    return Transactions.run(dsl, cfg -> begin(cfg.dsl(), refundId, attempt));
  }

  private static Submission begin(DSLContext tx, String refundId, int attempt) {
    Locked locked = RefundOutcomes.lock(tx, refundId);
    RefundState state = RefundState.valueOf(locked.refund().getState());
    Optional<RefundSubmissionRecord> stored = find(tx, refundId, attempt);
    if (stored.isPresent()) {
      return toSubmission(stored.get(), state, false);
    }
    if (attempt == RESUBMISSION && find(tx, refundId, FIRST).isEmpty()) {
      throw new RefundRefused(
          Reason.INVALID, "refund " + refundId + " was never submitted; it cannot be resubmitted");
    }
    boolean allowed =
        attempt == FIRST
            ? state == RefundState.REQUESTED
            : state == RefundState.UNKNOWN || state == RefundState.SUBMITTED;
    if (!allowed) {
      return new Submission(
          refundId, attempt, resultOf(state), true, null, "refund is " + state, state, false);
    }
    if (state != RefundState.UNKNOWN) {
      RefundOutcomes.move(tx, refundId, RefundTransition.LOSE_TRACK, Map.of());
    }
    tx.insertInto(REFUND_SUBMISSION)
        .set(REFUND_SUBMISSION.REFUND_ID, refundId)
        .set(REFUND_SUBMISSION.ATTEMPT, attempt)
        .set(REFUND_SUBMISSION.CREATED_AT, SqlTime.now())
        .execute();
    return new Submission(
        refundId, attempt, SubmissionResult.UNKNOWN, false, null, null, RefundState.UNKNOWN, true);
  }

  /**
   * Records the channel's answer to submission {@code attempt} and applies it to the refund, in one
   * transaction: SUCCEEDED through {@link RefundOutcomes#succeeded} (the payment refunded, a {@code
   * PaymentRefunded} event), FAILED through {@link RefundOutcomes#failed}, PENDING through {@link
   * RefundOutcomes#pending}, UNKNOWN leaves the refund UNKNOWN. An outcome that contradicts one the
   * ledger recorded meanwhile (a callback said FAILED, the submit answers SUCCEEDED) leaves the
   * refund as it is; the answer is still stored. Idempotent: an attempt whose answer is already
   * recorded is answered as stored, changing nothing.
   *
   * @param channelRefundId the channel's refund id; required for SUCCEEDED
   * @param detail the channel's words: its failure reason for FAILED, the error for UNKNOWN; may be
   *     null
   * @throws RefundRefused NOT_FOUND for no such refund; INVALID when the attempt was never begun or
   *     a SUCCEEDED answer has no channel refund id
   */
  public Submission record(
      String refundId,
      int attempt,
      SubmissionResult result,
      String channelRefundId,
      String detail) {
    if (result == SubmissionResult.SUCCEEDED) {
      RefundAsk.requireText(channelRefundId, "channelRefundId", 128);
    }
    return Transactions.run(
        dsl, cfg -> record(cfg.dsl(), refundId, attempt, result, channelRefundId, detail));
  }

  private Submission record(
      DSLContext tx,
      String refundId,
      int attempt,
      SubmissionResult result,
      String channelRefundId,
      String detail) {
    RefundOutcomes.lock(tx, refundId);
    RefundSubmissionRecord row =
        find(tx, refundId, attempt)
            .orElseThrow(
                () ->
                    new RefundRefused(
                        Reason.INVALID,
                        "submission " + attempt + " of refund " + refundId + " was never begun"));
    if (row.getResult() != null) {
      return toSubmission(row, stateOf(tx, refundId), false);
    }
    apply(tx, refundId, result, channelRefundId, detail);
    int changed =
        tx.update(REFUND_SUBMISSION)
            .set(REFUND_SUBMISSION.RESULT, result.name())
            .set(REFUND_SUBMISSION.CHANNEL_REFUND_ID, channelRefundId)
            .set(REFUND_SUBMISSION.DETAIL, detail == null ? null : Text.truncate(detail))
            .set(REFUND_SUBMISSION.ANSWERED_AT, SqlTime.now())
            .where(REFUND_SUBMISSION.REFUND_ID.eq(refundId))
            .and(REFUND_SUBMISSION.ATTEMPT.eq(attempt))
            .and(REFUND_SUBMISSION.RESULT.isNull())
            .execute();
    if (changed != 1) {
      throw new IllegalStateException(
          changed + " submission rows answered for refund " + refundId + " attempt " + attempt);
    }
    return toSubmission(find(tx, refundId, attempt).orElseThrow(), stateOf(tx, refundId), false);
  }

  /** The refund's submissions so far: 0, 1 or 2 (the number of the last one begun). */
  public int attempts(String refundId) {
    return dsl.fetchCount(REFUND_SUBMISSION, REFUND_SUBMISSION.REFUND_ID.eq(refundId));
  }

  /** Submission {@code attempt} of the refund as stored; empty when it was never begun. */
  public Optional<Submission> find(String refundId, int attempt) {
    return find(dsl, refundId, attempt).map(r -> toSubmission(r, stateOf(dsl, refundId), false));
  }

  private void apply(
      DSLContext tx,
      String refundId,
      SubmissionResult result,
      String channelRefundId,
      String detail) {
    try {
      switch (result) {
        case SUCCEEDED -> outcomes.succeeded(tx, refundId, channelRefundId);
        case FAILED ->
            outcomes.failed(
                tx,
                refundId,
                detail == null || detail.isBlank() ? NO_REASON : Text.truncate(detail));
        case PENDING -> outcomes.pending(tx, refundId);
        case UNKNOWN -> {
          // The refund stays UNKNOWN (begin moved it there), or as a callback left it.
        }
      }
    } catch (RefundRefused e) {
      if (e.reason() != Reason.OUTCOME_CONFLICT) {
        throw e;
      }
      // The ledger already holds the opposite outcome; its record stands, the answer is kept.
    }
  }

  private static Optional<RefundSubmissionRecord> find(
      DSLContext tx, String refundId, int attempt) {
    return tx.selectFrom(REFUND_SUBMISSION)
        .where(REFUND_SUBMISSION.REFUND_ID.eq(refundId))
        .and(REFUND_SUBMISSION.ATTEMPT.eq(attempt))
        .fetchOptional();
  }

  private static RefundState stateOf(DSLContext tx, String refundId) {
    return RefundState.valueOf(
        tx.select(REFUND.STATE)
            .from(REFUND)
            .where(REFUND.REFUND_ID.eq(refundId))
            .fetchSingle()
            .value1());
  }

  private static SubmissionResult resultOf(RefundState state) {
    return switch (state) {
      case SUCCEEDED -> SubmissionResult.SUCCEEDED;
      case FAILED -> SubmissionResult.FAILED;
      default -> SubmissionResult.UNKNOWN;
    };
  }

  private static Submission toSubmission(
      RefundSubmissionRecord r, RefundState state, boolean fresh) {
    boolean answered = r.getResult() != null;
    return new Submission(
        r.getRefundId(),
        r.getAttempt(),
        answered ? SubmissionResult.valueOf(r.getResult()) : SubmissionResult.UNKNOWN,
        answered,
        r.getChannelRefundId(),
        r.getDetail(),
        state,
        fresh);
  }
}

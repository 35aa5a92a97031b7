package dev.payrelay.workflows;

import io.temporal.workflow.Workflow;

/**
 * A payment whose channel queries keep failing needs an operator: without it, a paid order whose
 * callback was lost and whose channel does not answer stays {@code AWAITING_PAYMENT} with no error
 * anywhere but the failed activities. Under {@code Workflow.getVersion("query-attention")} = 1,
 * after {@link #FAILED_QUERIES} failed queries in a row (each one {@link
 * ChannelWatch#CHANNEL_ATTEMPTS} attempts) the payment shows NEEDS_ATTENTION with an {@link
 * Attention#CHANNEL_QUERY} cause naming the last error, and its {@link
 * PaymentSearchAttributes#PAYMENT_ATTENTION} reads {@value
 * PaymentSearchAttributes#CHANNEL_QUERY_FAILING}; the watch keeps asking on its schedule, and the
 * first answer (or the payment settling) clears both.
 *
 * <p>The version is read when the count first reaches {@link #FAILED_QUERIES}, so a run whose
 * queries answer records no marker, and a history recorded before the change (no marker) replays
 * without the cause. The count starts again in a run continued as new.
 */
final class QueryAttention {

  /** The {@code Workflow.getVersion} change id. */
  static final String CHANGE_ID = "query-attention";

  /** The version whose runs raise the cause. */
  static final int VERSION = 1;

  /**
   * Failed queries in a row that make the payment need an operator: on the default schedule about
   * the first minutes after the grace; on a blip (one failed query) nothing is raised.
   */
  static final int FAILED_QUERIES = 3;

  private final PaymentStory story;
  private int failedInARow;
  private boolean raised;
  private Boolean applies;

  QueryAttention(PaymentStory story) {
    this.story = story;
  }

  /**
   * Counts one query's outcome: {@code failure} is why it failed, or null when the channel
   * answered.
   */
  void after(String paymentId, String failure) {
    if (failure == null) {
      failedInARow = 0;
      clear();
      return;
    }
    failedInARow++;
    if (failedInARow < FAILED_QUERIES || !applies()) {
      return;
    }
    story.needsAttention(
        Attention.CHANNEL_QUERY,
        "the channel query failed "
            + failedInARow
            + " times in a row ("
            + ChannelWatch.CHANNEL_ATTEMPTS
            + " attempts each; last: "
            + failure
            + "); payment "
            + paymentId
            + " stays AWAITING_PAYMENT and the watch keeps asking");
    if (!raised) {
      raised = true;
      Workflow.upsertTypedSearchAttributes(
          PaymentSearchAttributes.PAYMENT_ATTENTION.valueSet(
              PaymentSearchAttributes.CHANNEL_QUERY_FAILING));
    }
  }

  /** Closes the cause, if open: the channel answered or the payment settled. */
  void clear() {
    if (!raised) {
      return;
    }
    raised = false;
    story.clear(Attention.CHANNEL_QUERY);
    story.showState();
    Workflow.upsertTypedSearchAttributes(PaymentSearchAttributes.PAYMENT_ATTENTION.valueUnset());
  }

  private boolean applies() {
    if (applies == null) {
      applies = Workflow.getVersion(CHANGE_ID, Workflow.DEFAULT_VERSION, VERSION) >= VERSION;
    }
    return applies;
  }
}

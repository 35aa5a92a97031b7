package dev.payrelay.ledger.inbox;

import java.util.Objects;

/**
 * What {@link ConsumerInbox#process} did with one delivery.
 *
 * @param kind processed now, an already-committed duplicate, or a conflicting reuse of the id
 * @param value the change's result when {@link Kind#PROCESSED}, else null
 * @param storedSha256 the payload hash the inbox holds for the key (this delivery's when processed)
 * @param <T> the change's result type
 */
public record InboxOutcome<T>(Kind kind, T value, String storedSha256) {

  /** The three answers of an inbox. */
  public enum Kind {
    /** This call committed the inbox row and the business change. */
    PROCESSED,
    /** Committed before with the same payload: nothing to do but ack. */
    DUPLICATE,
    /** Committed before with another payload under the same id: quarantine and alert. */
    CONFLICT
  }

  /** Validates. */
  public InboxOutcome {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(storedSha256, "storedSha256");
  }
}

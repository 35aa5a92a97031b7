package dev.payrelay.api.admin;

import dev.payrelay.api.BadRequestException;
import dev.payrelay.api.NotFoundException;
import dev.payrelay.api.ServiceUnavailableException;
import java.util.List;
import java.util.Objects;

/**
 * What the admin API needs of the consumers' quarantine queues (the port; the worker adapts the
 * broker-side implementation to it, since the api module does not reach RabbitMQ itself).
 *
 * <p>Implementations throw {@link NotFoundException} for a consumer whose queues the broker does
 * not have, {@link BadRequestException} for a malformed consumer name, and {@link
 * ServiceUnavailableException} when the broker cannot be reached or fails the request.
 */
public interface QuarantineAdmin {

  /** The most messages one listing shows and one replay moves. */
  int MAX_MESSAGES = 500;

  /**
   * The first {@code limit} messages of {@code consumer}'s quarantine queue and its depth; the
   * messages stay where they are.
   *
   * @param limit 1..{@value #MAX_MESSAGES}
   */
  Listing list(String consumer, int limit);

  /**
   * Moves the selected messages back to {@code consumer}'s work queue with their original event id
   * and writes one audit row per event id ({@code operator_action}, action {@code
   * QUARANTINE_REPLAY}) right after each move.
   *
   * @param reason why, non-blank, for the audit rows
   * @param operator the API key's operator
   */
  Replay replay(String consumer, Selection selection, String reason, String operator);

  /**
   * A quarantine queue's head.
   *
   * @param consumer the consumer's name
   * @param queue the quarantine queue's name
   * @param depth messages ready in it when listed
   * @param messages at most the limit asked, oldest first
   */
  record Listing(String consumer, String queue, long depth, List<Message> messages) {

    /** Copies the list. */
    public Listing {
      messages = List.copyOf(messages);
    }
  }

  /**
   * One quarantined message (its body is not shown).
   *
   * @param eventId the AMQP {@code message_id}; null for a message without one (not replayable)
   * @param eventType the AMQP {@code type}
   * @param routingKey the routing key it was first published with
   * @param reason POISON, EXHAUSTED, CONFLICT, NO_MESSAGE_ID or DELIVERY_LIMIT
   * @param detail the failure's text, at most 1000 characters; null when none was recorded
   * @param quarantinedAt ISO-8601 instant; null for a message the broker dead-lettered itself
   * @param attempt the handling that failed last, from 1
   * @param bodyBytes the body's size in bytes
   */
  record Message(
      String eventId,
      String eventType,
      String routingKey,
      String reason,
      String detail,
      String quarantinedAt,
      int attempt,
      int bodyBytes) {}

  /**
   * Which messages to replay: the given event ids, or (when {@code eventIds} is empty) the first
   * {@code limit} messages that have an id.
   *
   * @param eventIds 0..{@value #MAX_MESSAGES} distinct event ids
   * @param limit with no ids, 1..{@value #MAX_MESSAGES}; ignored otherwise
   */
  record Selection(List<String> eventIds, int limit) {

    /** Copies the list. */
    public Selection {
      eventIds = List.copyOf(eventIds);
    }

    /** Whether this selects by position rather than by id. */
    public boolean all() {
      return eventIds.isEmpty();
    }
  }

  /**
   * What a replay did.
   *
   * @param consumer the consumer's name
   * @param operator who asked (the API key's operator)
   * @param reason why
   * @param results one per event id: REPLAYED ones in the queue's order, then NOT_FOUND ones
   */
  record Replay(String consumer, String operator, String reason, List<Replayed> results) {

    /** Copies the list. */
    public Replay {
      results = List.copyOf(results);
    }
  }

  /**
   * One event id's outcome.
   *
   * @param eventId the event id
   * @param result REPLAYED or NOT_FOUND
   * @param auditId the {@code operator_action} row's id
   */
  record Replayed(String eventId, String result, long auditId) {

    /** Validates. */
    public Replayed {
      Objects.requireNonNull(eventId, "eventId");
      Objects.requireNonNull(result, "result");
    }
  }
}

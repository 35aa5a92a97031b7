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
   * Discards the message with quarantine entry id {@code entryId} (with or without an event id):
   * keeps it as a {@code quarantine_discard} row (status DISCARDED, its headers and body, who, why,
   * when) with its audit row ({@code operator_action}, action {@code QUARANTINE_DISCARD}), and only
   * then takes it off the queue.
   *
   * @param reason why, non-blank
   * @param operator the API key's operator
   * @throws NotFoundException also when no message with that entry id is in the queue
   */
  Discard discard(String consumer, String entryId, String reason, String operator);

  /**
   * A discard done.
   *
   * @param consumer the consumer's name
   * @param entryId the entry id
   * @param eventId the message's event id, or null when it had none
   * @param quarantineReason why it had been quarantined
   * @param operator who discarded it (the API key's operator)
   * @param reason why
   * @param result {@code DISCARDED}
   * @param auditId the {@code operator_action} row's id
   */
  record Discard(
      String consumer,
      String entryId,
      String eventId,
      String quarantineReason,
      String operator,
      String reason,
      String result,
      long auditId) {}

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
   * @param entryId the quarantine entry id (16 hex digits): what replay and discard address it by
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
      String entryId,
      String eventId,
      String eventType,
      String routingKey,
      String reason,
      String detail,
      String quarantinedAt,
      int attempt,
      int bodyBytes) {}

  /**
   * Which messages to replay: the given event ids, the given entry ids, or (when both are empty)
   * the first {@code limit} messages that have an event id.
   *
   * @param eventIds 0..{@value #MAX_MESSAGES} distinct event ids
   * @param entryIds 0..{@value #MAX_MESSAGES} distinct entry ids; not with event ids
   * @param limit with no ids, 1..{@value #MAX_MESSAGES}; ignored otherwise
   */
  record Selection(List<String> eventIds, List<String> entryIds, int limit) {

    /** Copies the lists. */
    public Selection {
      eventIds = List.copyOf(eventIds);
      entryIds = List.copyOf(entryIds);
    }

    /** Whether this selects by position rather than by id. */
    public boolean all() {
      return eventIds.isEmpty() && entryIds.isEmpty();
    }
  }

  /**
   * What a replay did.
   *
   * @param consumer the consumer's name
   * @param operator who asked (the API key's operator)
   * @param reason why
   * @param results one per message or id: REPLAYED and SKIPPED ones in the queue's order, then
   *     NOT_FOUND ones
   * @param replayed how many results are REPLAYED
   * @param skipped how many are SKIPPED: found, left in quarantine, each result's {@code why} says
   *     why
   * @param notFound how many are NOT_FOUND
   */
  record Replay(
      String consumer,
      String operator,
      String reason,
      List<Replayed> results,
      int replayed,
      int skipped,
      int notFound) {

    /** Copies the list. */
    public Replay {
      results = List.copyOf(results);
    }

    /** A replay's answer, its counts taken from {@code results}. */
    public Replay(String consumer, String operator, String reason, List<Replayed> results) {
      this(
          consumer,
          operator,
          reason,
          results,
          count(results, "REPLAYED"),
          count(results, "SKIPPED"),
          count(results, "NOT_FOUND"));
    }

    private static int count(List<Replayed> results, String result) {
      return (int) results.stream().filter(r -> r.result().equals(result)).count();
    }
  }

  /**
   * One message's or id's outcome.
   *
   * @param entryId the quarantine entry id; null for an event id not found
   * @param eventId the event id; null for a message without one or an entry id not found
   * @param result REPLAYED, SKIPPED or NOT_FOUND
   * @param why for SKIPPED, why it was left in quarantine; else null
   * @param auditId the {@code operator_action} row's id
   */
  record Replayed(String entryId, String eventId, String result, String why, long auditId) {

    /** Validates. */
    public Replayed {
      Objects.requireNonNull(result, "result");
    }
  }
}

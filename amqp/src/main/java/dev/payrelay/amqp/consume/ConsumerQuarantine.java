package dev.payrelay.amqp.consume;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import dev.payrelay.amqp.AmqpConfig;
import dev.payrelay.amqp.publish.ConfirmingChannel;
import dev.payrelay.amqp.publish.PublishException;
import dev.payrelay.amqp.publish.PublisherConnection;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An operator's view of one consumer's quarantine queue ({@link ConsumerQueues#quarantine()}): what
 * is in it, and moving chosen messages back to the consumer's work queue with their original event
 * id (DESIGN invariant 8).
 *
 * <p>Each call opens its own short-lived connection (admin actions are rare; the broker being down
 * is then an {@link IOException} of that call alone) and reads with {@code basic.get} without
 * auto-ack, so a message it holds stays in the queue, unacknowledged, until it is acked after its
 * move or returned ({@code basic.nack} with requeue, or the connection's close). Two operators
 * working on the same queue at once each see only what the other does not hold.
 *
 * <p>A move publishes the message to the consumer's work queue through the default exchange
 * (routing key = the queue's name), {@code mandatory}, with its original {@code message_id}, type,
 * body and headers minus the quarantine's (so the consumer starts a fresh retry budget), waits for
 * the publisher confirm, and only then acks it off the quarantine queue. If the process dies
 * between the confirm and the ack, the message is in both queues (the broker returns the unacked
 * quarantine copy when the connection drops): harmless, because the consumer's inbox answers
 * DUPLICATE for an event id it already processed with the same body (DESIGN invariant 7). A failed
 * publish leaves the message in quarantine only.
 *
 * <p>Returning a message may count in a quorum queue's per-message delivery count. The quarantine
 * queue is declared without {@code x-delivery-limit} ({@link ConsumerTopology}), so on RabbitMQ 3.x
 * the count is never acted on and peeking is harmless. RabbitMQ 4.0 gives every quorum queue a
 * default delivery limit of 20 (4.0 release notes), after which a message is dropped, since the
 * quarantine queue has no dead-letter exchange; RabbitMQ 4.3 counts only {@code basic.reject}
 * returns, not {@code basic.nack} ones (rabbitmq-server#15387), which is why this class returns
 * with {@code basic.nack}. On 4.0 to 4.2, set a policy {@code delivery-limit: -1} on {@code
 * payrelay.consumer.*.quarantine} before listing a queue often.
 */
public final class ConsumerQuarantine {

  /** The most messages {@link #list} shows and {@link #replay} moves in one call. */
  public static final int MAX_MESSAGES = 500;

  /**
   * The most messages one {@link #replay} by event id holds unacknowledged while it looks for the
   * ids; an id further back is answered NOT_FOUND.
   */
  public static final int MAX_SCAN = 10_000;

  private static final Logger log = LoggerFactory.getLogger(ConsumerQuarantine.class);

  private final AmqpConfig amqp;
  private final ConnectionFactory factory;
  private final String queuePrefix;

  /**
   * Quarantine access over {@code amqp}'s broker; its confirm timeout bounds the TCP connect, every
   * channel RPC and each replayed message's publisher confirm. The exchange and pool size are not
   * used.
   */
  public ConsumerQuarantine(AmqpConfig amqp) {
    this(amqp, ConsumerQueues.DEFAULT_PREFIX);
  }

  /**
   * As {@link #ConsumerQuarantine(AmqpConfig)}, for consumers whose queues are under {@code
   * queuePrefix} ({@link ConsumerSettings#queuePrefix()}).
   */
  public ConsumerQuarantine(AmqpConfig amqp, String queuePrefix) {
    this.amqp = amqp;
    this.factory = PublisherConnection.factoryFor(amqp);
    this.queuePrefix = queuePrefix;
  }

  /** Called right after each move, skip or (at the end) id not found; may throw to stop. */
  @FunctionalInterface
  public interface ReplayListener {
    /** {@code outcome} is final: a REPLAYED message is already in the work queue. */
    void replayed(QuarantineReplay outcome);
  }

  /** Called with the message about to be discarded, before its ack; throwing keeps it queued. */
  @FunctionalInterface
  public interface DiscardListener {
    /**
     * Keeps what the broker is about to forget (e.g. writes it to a table).
     *
     * @param message the operator's view of it
     * @param body its body as delivered
     */
    void discarding(QuarantinedMessage message, byte[] body);
  }

  /**
   * The first {@code limit} messages of {@code consumer}'s quarantine queue and its depth; every
   * message is returned to the queue before this returns.
   *
   * @param consumer a consumer name, 1..64 of {@code [a-z0-9-]}
   * @param limit 1..{@value #MAX_MESSAGES}
   * @throws IllegalArgumentException for a malformed name or a limit out of range
   * @throws UnknownConsumerException when its quarantine queue does not exist
   * @throws IOException when the broker cannot be reached or fails the request
   */
  public QuarantinePeek list(String consumer, int limit) throws IOException {
    ConsumerQueues queues = queuesOf(consumer);
    requireLimit(limit);
    try (QuarantineSession session = open(consumer)) {
      long depth = session.depth(queues.quarantine());
      Channel channel = session.createChannel();
      List<QuarantinedMessage> seen = new ArrayList<>();
      long last = 0;
      for (GetResponse r; seen.size() < limit && (r = get(channel, queues)) != null; ) {
        seen.add(QuarantineHeaders.describe(r));
        last = r.getEnvelope().getDeliveryTag();
      }
      if (last > 0) {
        channel.basicNack(last, true, true);
      }
      return new QuarantinePeek(consumer, queues.quarantine(), depth, seen);
    }
  }

  /**
   * Moves the first message with each of {@code eventIds} from {@code consumer}'s quarantine queue
   * to its work queue (a move as the class comment says); every other message it looked at is
   * returned untouched.
   *
   * <p>The queue is scanned from its head until every id is found, the queue is empty, or it has
   * scanned its depth at the start (a message quarantined again meanwhile is not seen twice), at
   * most {@value #MAX_SCAN} messages; the ids not found are then reported NOT_FOUND.
   *
   * @param eventIds 1..{@value #MAX_MESSAGES} event ids (AMQP {@code message_id}s); repeats count
   *     once
   * @param listener told each outcome as it happens (e.g. to write its audit row)
   * @return one outcome per distinct id, REPLAYED ones first in the queue's order
   * @throws IllegalArgumentException for a malformed name, no ids or too many
   * @throws UnknownConsumerException when its quarantine or work queue does not exist
   * @throws IOException when the broker cannot be reached, fails a request or does not confirm a
   *     publish in time: the messages moved so far are reported to the listener, the rest stay
   */
  public List<QuarantineReplay> replay(
      String consumer, Set<String> eventIds, ReplayListener listener) throws IOException {
    Set<String> wanted = distinct(eventIds);
    List<QuarantineReplay> outcomes =
        moveWhere(consumer, byId(wanted, (entry, id) -> id), listener);
    for (String id : wanted) {
      outcomes.add(notFound(null, id, listener));
    }
    return outcomes;
  }

  /**
   * As {@link #replay(String, Set, ReplayListener)}, by quarantine entry ids ({@link
   * QuarantinedMessage#entryId()}): an entry whose message has no usable event id is not moved but
   * reported SKIPPED ({@link QuarantineReplay#NO_MESSAGE_ID}); it stays in quarantine.
   *
   * @param entryIds 1..{@value #MAX_MESSAGES} entry ids; repeats count once
   */
  public List<QuarantineReplay> replayEntries(
      String consumer, Set<String> entryIds, ReplayListener listener) throws IOException {
    Set<String> wanted = distinct(entryIds);
    List<QuarantineReplay> outcomes =
        moveWhere(consumer, byId(wanted, (entry, id) -> entry), listener);
    for (String entry : wanted) {
      outcomes.add(notFound(entry, null, listener));
    }
    return outcomes;
  }

  /**
   * Moves the first {@code limit} messages that have a usable event id (1..64 characters, as the
   * consumer requires) from {@code consumer}'s quarantine queue to its work queue, scanning as
   * {@link #replay(String, Set, ReplayListener)} does; each message without one ({@link
   * QuarantineReason#NO_MESSAGE_ID}: the consumer would quarantine it again) is reported SKIPPED
   * and returned untouched.
   *
   * @param limit 1..{@value #MAX_MESSAGES}
   * @return one REPLAYED outcome per message moved and one SKIPPED per message passed over, in the
   *     queue's order (an id quarantined twice is moved twice; the consumer's inbox makes the
   *     second a duplicate)
   * @throws IllegalArgumentException for a malformed name or a limit out of range
   * @throws UnknownConsumerException when its quarantine or work queue does not exist
   * @throws IOException as for {@link #replay(String, Set, ReplayListener)}
   */
  public List<QuarantineReplay> replayFirst(String consumer, int limit, ReplayListener listener)
      throws IOException {
    requireLimit(limit);
    return moveWhere(
        consumer,
        new Choice() {
          private int taken;

          @Override
          public Decision decide(String entryId, String eventId) {
            if (eventId == null) {
              return Decision.SKIP;
            }
            taken++;
            return Decision.MOVE;
          }

          @Override
          public boolean satisfied() {
            return taken >= limit;
          }
        },
        listener);
  }

  /**
   * Discards the message with quarantine entry id {@code entryId} from {@code consumer}'s
   * quarantine queue: {@code listener} is given the message first (to keep it, e.g. as a row), and
   * only once it returns is the message acked off the queue; if it throws, the message is returned
   * untouched and the exception propagates. Scans as {@link #replay(String, Set, ReplayListener)}
   * does. The ack is not confirmed by the broker: a connection lost right after it may return the
   * message to the queue, where it shows again (kept twice, never lost unseen).
   *
   * @return the discarded message, or empty when no message with that entry id was scanned
   * @throws IllegalArgumentException for a malformed name or a blank entry id
   * @throws UnknownConsumerException when its quarantine queue does not exist
   * @throws IOException when the broker cannot be reached or fails a request
   */
  public Optional<QuarantinedMessage> discard(
      String consumer, String entryId, DiscardListener listener) throws IOException {
    if (entryId == null || entryId.isBlank() || entryId.length() > 64) {
      throw new IllegalArgumentException("an entry id is 1..64 characters: " + entryId);
    }
    ConsumerQueues queues = queuesOf(consumer);
    try (QuarantineSession session = open(consumer)) {
      long scan = Math.min(session.depth(queues.quarantine()), MAX_SCAN);
      Channel channel = session.createChannel();
      long held = 0;
      for (long n = 0; n < scan; n++) {
        GetResponse r = get(channel, queues);
        if (r == null) {
          break;
        }
        if (entryId.equals(QuarantineHeaders.entryId(r))) {
          if (held > 0) {
            channel.basicNack(held, true, true);
          }
          QuarantinedMessage message = QuarantineHeaders.describe(r);
          listener.discarding(message, r.getBody() == null ? new byte[0] : r.getBody());
          channel.basicAck(r.getEnvelope().getDeliveryTag(), false);
          log.info(
              "discarded entry {} (event {}) from {}",
              entryId,
              message.eventId(),
              queues.quarantine());
          return Optional.of(message);
        }
        held = r.getEnvelope().getDeliveryTag();
      }
      if (held > 0) {
        channel.basicNack(held, true, true);
      }
      return Optional.empty();
    }
  }

  /** What to do with one scanned message. */
  private enum Decision {
    MOVE,
    SKIP,
    HOLD
  }

  /** Which of the scanned messages to move or report skipped, and when to stop. */
  private interface Choice {
    /**
     * @param eventId its usable event id, or null when it has none
     */
    Decision decide(String entryId, String eventId);

    boolean satisfied();
  }

  /** The key a by-id choice matches its wanted ids against. */
  private interface Key {
    String of(String entryId, String eventId);
  }

  /**
   * Moves the first message whose key is in {@code wanted}, removing it; SKIP when it has no id.
   */
  private static Choice byId(Set<String> wanted, Key key) {
    return new Choice() {
      @Override
      public Decision decide(String entryId, String eventId) {
        String k = key.of(entryId, eventId);
        if (k == null || !wanted.remove(k)) {
          return Decision.HOLD;
        }
        return eventId == null ? Decision.SKIP : Decision.MOVE;
      }

      @Override
      public boolean satisfied() {
        return wanted.isEmpty();
      }
    };
  }

  private static Set<String> distinct(Set<String> ids) {
    Set<String> wanted = new LinkedHashSet<>(ids);
    if (wanted.isEmpty() || wanted.size() > MAX_MESSAGES) {
      throw new IllegalArgumentException("give 1.." + MAX_MESSAGES + " ids");
    }
    return wanted;
  }

  private static QuarantineReplay notFound(String entryId, String eventId, ReplayListener l) {
    QuarantineReplay missing =
        new QuarantineReplay(entryId, eventId, QuarantineReplay.Result.NOT_FOUND);
    l.replayed(missing);
    return missing;
  }

  private List<QuarantineReplay> moveWhere(String consumer, Choice choice, ReplayListener listener)
      throws IOException {
    ConsumerQueues queues = queuesOf(consumer);
    List<QuarantineReplay> outcomes = new ArrayList<>();
    try (QuarantineSession session = open(consumer)) {
      long scan = Math.min(session.depth(queues.quarantine()), MAX_SCAN);
      session.depth(queues.work());
      Channel channel = session.createChannel();
      ConfirmingChannel publisher = new ConfirmingChannel(channel);
      long held = 0;
      for (long n = 0; n < scan && !choice.satisfied(); n++) {
        GetResponse r = get(channel, queues);
        if (r == null) {
          break;
        }
        String id = r.getProps().getMessageId();
        String usable = id != null && !id.isBlank() && id.length() <= 64 ? id : null;
        String entry = QuarantineHeaders.entryId(r);
        switch (choice.decide(entry, usable)) {
          case MOVE -> outcomes.add(move(channel, publisher, queues, r, listener));
          case SKIP -> {
            QuarantineReplay skipped =
                new QuarantineReplay(
                    entry, null, QuarantineReplay.Result.SKIPPED, QuarantineReplay.NO_MESSAGE_ID);
            listener.replayed(skipped);
            outcomes.add(skipped);
            held = r.getEnvelope().getDeliveryTag();
          }
          case HOLD -> held = r.getEnvelope().getDeliveryTag();
        }
      }
      if (held > 0) {
        channel.basicNack(held, true, true);
      }
    }
    return outcomes;
  }

  /** One move, as the class comment says. */
  private QuarantineReplay move(
      Channel channel,
      ConfirmingChannel publisher,
      ConsumerQueues queues,
      GetResponse r,
      ReplayListener listener)
      throws IOException {
    String id = r.getProps().getMessageId();
    try {
      publisher.publish(
          "",
          queues.work(),
          QuarantineHeaders.forReplay(r),
          r.getBody(),
          amqp.confirmTimeoutMillis());
    } catch (PublishException e) {
      throw new IOException("replay of " + id + " to " + queues.work() + " failed: " + e, e);
    }
    channel.basicAck(r.getEnvelope().getDeliveryTag(), false);
    log.info("replayed event {} from {} to {}", id, queues.quarantine(), queues.work());
    QuarantineReplay outcome =
        new QuarantineReplay(QuarantineHeaders.entryId(r), id, QuarantineReplay.Result.REPLAYED);
    listener.replayed(outcome);
    return outcome;
  }

  private static GetResponse get(Channel channel, ConsumerQueues queues) throws IOException {
    return channel.basicGet(queues.quarantine(), false);
  }

  private ConsumerQueues queuesOf(String consumer) {
    if (consumer == null || !consumer.matches("[a-z0-9-]{1,64}")) {
      throw new IllegalArgumentException("consumer name must be 1..64 of [a-z0-9-]: " + consumer);
    }
    return new ConsumerQueues(queuePrefix, consumer);
  }

  private static void requireLimit(int limit) {
    if (limit < 1 || limit > MAX_MESSAGES) {
      throw new IllegalArgumentException("limit must be 1.." + MAX_MESSAGES + ": " + limit);
    }
  }

  private QuarantineSession open(String consumer) throws IOException {
    return QuarantineSession.open(factory, amqp, consumer);
  }
}

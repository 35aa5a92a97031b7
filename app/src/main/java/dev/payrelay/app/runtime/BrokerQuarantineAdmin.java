package dev.payrelay.app.runtime;

import dev.payrelay.amqp.consume.ConsumerQuarantine;
import dev.payrelay.amqp.consume.QuarantinePeek;
import dev.payrelay.amqp.consume.QuarantineReplay;
import dev.payrelay.amqp.consume.QuarantinedMessage;
import dev.payrelay.amqp.consume.UnknownConsumerException;
import dev.payrelay.api.BadRequestException;
import dev.payrelay.api.NotFoundException;
import dev.payrelay.api.ServiceUnavailableException;
import dev.payrelay.api.admin.QuarantineAdmin;
import dev.payrelay.ledger.inbox.QuarantineDiscards;
import dev.payrelay.ledger.inbox.QuarantineReplays;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin API's {@link QuarantineAdmin} over the broker ({@link ConsumerQuarantine}) and the
 * audit tables ({@link QuarantineReplays}, {@link QuarantineDiscards}; a discard's rows are written
 * before the message leaves the queue, see there). For a replay, each move's audit row is written
 * as soon as the move is done, so a replay cut short by a database failure has rows for every move
 * before it. The move whose row failed is already in the work queue; it is logged (INFO, {@code
 * replayed event ...}) but has no row, and the request fails (503 when the database is
 * unreachable). The broker and the database share no transaction, so one of the two must come
 * first: the move does, so a row never claims a move that did not happen.
 */
final class BrokerQuarantineAdmin implements QuarantineAdmin {

  private static final Logger log = LoggerFactory.getLogger(BrokerQuarantineAdmin.class);

  private final ConsumerQuarantine quarantine;
  private final QuarantineReplays audit;
  private final QuarantineDiscards discards;

  BrokerQuarantineAdmin(
      ConsumerQuarantine quarantine, QuarantineReplays audit, QuarantineDiscards discards) {
    this.quarantine = quarantine;
    this.audit = audit;
    this.discards = discards;
  }

  @Override
  public Listing list(String consumer, int limit) {
    return answer(() -> listing(quarantine.list(consumer, limit)));
  }

  private static Listing listing(QuarantinePeek peek) {
    return new Listing(
        peek.consumer(),
        peek.queue(),
        peek.depth(),
        peek.messages().stream()
            .map(
                m ->
                    new Message(
                        m.entryId(),
                        m.eventId(),
                        m.type(),
                        m.routingKey(),
                        m.reason(),
                        m.detail(),
                        m.quarantinedAt(),
                        m.attempt(),
                        m.bodyBytes()))
            .toList());
  }

  @Override
  public Replay replay(String consumer, Selection selection, String reason, String operator) {
    List<Replayed> results = new ArrayList<>();
    ConsumerQuarantine.ReplayListener record =
        outcome -> {
          String result = outcome.result().name();
          long id =
              audit.record(
                  operator,
                  consumer,
                  outcome.eventId(),
                  outcome.entryId(),
                  reason,
                  result,
                  outcome.why());
          log.info(
              "quarantine replay by {} of {}/{} (entry {}): {} ({})",
              operator,
              consumer,
              outcome.eventId(),
              outcome.entryId(),
              result,
              reason);
          results.add(
              new Replayed(outcome.entryId(), outcome.eventId(), result, outcome.why(), id));
        };
    return answer(
        () -> {
          List<QuarantineReplay> done =
              selection.all()
                  ? quarantine.replayFirst(consumer, selection.limit(), record)
                  : selection.eventIds().isEmpty()
                      ? quarantine.replayEntries(
                          consumer, new LinkedHashSet<>(selection.entryIds()), record)
                      : quarantine.replay(
                          consumer, new LinkedHashSet<>(selection.eventIds()), record);
          log.info("quarantine replay of {} by {}: {} outcome(s)", consumer, operator, done.size());
          return new Replay(consumer, operator, reason, results);
        });
  }

  @Override
  public Discard discard(String consumer, String entryId, String reason, String operator) {
    long[] auditId = new long[1];
    Optional<QuarantinedMessage> gone =
        answer(
            () ->
                quarantine.discard(
                    consumer,
                    entryId,
                    (m, body) ->
                        auditId[0] =
                            discards.record(
                                new QuarantineDiscards.Discarded(
                                    consumer,
                                    m.entryId(),
                                    m.eventId(),
                                    m.type(),
                                    m.routingKey(),
                                    m.reason(),
                                    m.detail(),
                                    m.quarantinedAt(),
                                    body),
                                operator,
                                reason)));
    QuarantinedMessage m =
        gone.orElseThrow(
            () ->
                new NotFoundException(
                    "no entry " + entryId + " in the quarantine of consumer " + consumer));
    log.info(
        "quarantine discard by {} of {} entry {} (event {}): {}",
        operator,
        consumer,
        entryId,
        m.eventId(),
        reason);
    return new Discard(
        consumer,
        entryId,
        m.eventId(),
        m.reason(),
        operator,
        reason,
        QuarantineDiscards.DISCARDED,
        auditId[0]);
  }

  /** A request to the broker. */
  private interface BrokerCall<T> {
    T run() throws IOException;
  }

  /**
   * The answer of {@code call}, its failures as the admin API's: a bad consumer name or limit 400,
   * an unknown consumer 404, a broker that cannot serve 503.
   */
  private static <T> T answer(BrokerCall<T> call) {
    try {
      return call.run();
    } catch (IllegalArgumentException e) {
      throw new BadRequestException(e.getMessage());
    } catch (UnknownConsumerException e) {
      throw new NotFoundException(e.getMessage());
    } catch (IOException e) {
      throw unavailable(e);
    }
  }

  private static ServiceUnavailableException unavailable(IOException e) {
    log.warn("quarantine request failed: broker unavailable: {}", e.toString());
    return new ServiceUnavailableException(
        "RabbitMQ cannot serve this now (" + e + "); retry later", e);
  }
}

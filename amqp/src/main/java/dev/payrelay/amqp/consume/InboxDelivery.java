package dev.payrelay.amqp.consume;

import dev.payrelay.domain.crash.CrashPoint;
import dev.payrelay.domain.crash.CrashPoints;
import dev.payrelay.ledger.db.DatabaseErrors;
import dev.payrelay.ledger.inbox.ConsumerInbox;
import dev.payrelay.ledger.inbox.InboxOutcome;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Takes one delivery through the consumer's inbox (DESIGN invariant 7): the inbox row {@code
 * (consumer, message_id, sha256(body))} and the handler's change in one transaction, and the ack
 * only after its commit. An already-committed duplicate (same hash) is acked again; what cannot be
 * processed goes to the {@link QuarantineHandOff}: a reused id with another payload, a {@link
 * PoisonMessageException}, content the database refuses and a missing {@code message_id} to
 * quarantine at once, any other failure to the delay queue of its attempt.
 *
 * <p>Each delivery is held in flight until then, and timed: {@code payrelay.consumer.processing},
 * tagged {@code consumer} and {@code outcome} ({@link DeliveryOutcome}, lower case).
 */
final class InboxDelivery {

  // Logged under the consumer kit's name, as before these classes were split out of it.
  private static final Logger log = LoggerFactory.getLogger(InboxConsumer.class);

  private final ConsumerSettings settings;
  private final ConsumerInbox inbox;
  private final MessageHandler handler;
  private final CrashPoints crash;
  private final QuarantineHandOff handOff;
  private final InFlightDeliveries inFlight;
  private final MeterRegistry metrics;

  /**
   * Handles {@code settings}' deliveries with {@code handler} through {@code inbox}.
   *
   * @param crash {@link CrashPoint#CONSUMER_AFTER_COMMIT} halts between the commit and the ack
   * @param inFlight where each delivery is held until it is settled
   */
  InboxDelivery(
      ConsumerSettings settings,
      ConsumerInbox inbox,
      MessageHandler handler,
      CrashPoints crash,
      QuarantineHandOff handOff,
      InFlightDeliveries inFlight,
      MeterRegistry metrics) {
    this.settings = settings;
    this.inbox = inbox;
    this.handler = handler;
    this.crash = crash;
    this.handOff = handOff;
    this.inFlight = inFlight;
    this.metrics = metrics;
  }

  /**
   * Handles {@code d} on the channel's dispatch thread, with its event id in the log context. A
   * fault of the kit itself gives the delivery back (bounded by {@code x-delivery-limit}, then
   * quarantined by the broker) rather than hold its prefetch slot for good.
   */
  void receive(Delivery d) {
    long key = inFlight.begin();
    long started = System.nanoTime();
    DeliveryOutcome outcome = DeliveryOutcome.REQUEUED;
    MDC.put("eventId", String.valueOf(d.properties().getMessageId()));
    try {
      outcome = handle(d);
    } catch (RuntimeException e) {
      log.error("consumer {}: handling failed; requeueing the delivery", settings.name(), e);
      d.requeueAfterPause();
    } finally {
      inFlight.end(key);
      MDC.remove("eventId");
      Timer.builder("payrelay.consumer.processing")
          .description("Time from delivery to ack or republish")
          .tags("consumer", settings.name(), "outcome", outcome.name().toLowerCase())
          .register(metrics)
          .record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
    }
  }

  /** Handles {@code d} and acks, republishes or requeues it. */
  private DeliveryOutcome handle(Delivery d) {
    Map<String, Object> headers = d.headers();
    String eventId = d.properties().getMessageId();
    // A foreign or garbled header must not pick a delay queue that does not exist.
    int attempt = Math.max(1, HeaderValues.intValue(headers, InboxConsumer.ATTEMPT_HEADER, 1));
    if (eventId == null || eventId.isBlank() || eventId.length() > 64) {
      return handOff.quarantine(
          d,
          QuarantineReason.NO_MESSAGE_ID,
          "message_id is missing, blank or longer than 64 characters");
    }
    ConsumedMessage message = message(d, eventId, attempt);
    String hash = ConsumerInbox.sha256(d.body());
    InboxOutcome<Void> outcome;
    try {
      outcome =
          inbox.process(
              settings.name(),
              eventId,
              hash,
              tx -> {
                handler.handle(message, tx);
                return null;
              });
    } catch (PoisonMessageException e) {
      return handOff.quarantine(d, QuarantineReason.POISON, e.getMessage());
    } catch (RuntimeException e) {
      if (DatabaseErrors.isDataError(e)) {
        // The content breaks the schema (too long, out of range): no retry can fix that.
        return handOff.quarantine(
            d, QuarantineReason.POISON, "the database refused the content: " + e.getMessage());
      }
      return handOff.retryOrQuarantine(d, attempt, e);
    }
    return settle(d, eventId, hash, outcome);
  }

  /** What the handler sees of {@code d}: the routing key it was first published with, too. */
  private static ConsumedMessage message(Delivery d, String eventId, int attempt) {
    Map<String, Object> headers = d.headers();
    Object originalKey = headers.get(InboxConsumer.ROUTING_KEY_HEADER);
    return new ConsumedMessage(
        eventId,
        d.properties().getType(),
        HeaderValues.intValue(headers, "payload_version", 0),
        originalKey == null ? d.envelope().getRoutingKey() : originalKey.toString(),
        d.body(),
        headers,
        attempt);
  }

  /** Acks a processed or duplicate delivery; quarantines one whose id came with another payload. */
  private DeliveryOutcome settle(
      Delivery d, String eventId, String hash, InboxOutcome<Void> outcome) {
    switch (outcome.kind()) {
      case PROCESSED -> {
        crash.reach(CrashPoint.CONSUMER_AFTER_COMMIT);
        d.ack();
        return DeliveryOutcome.PROCESSED;
      }
      case DUPLICATE -> {
        log.info("consumer {}: event {} already processed; acking", settings.name(), eventId);
        d.ack();
        return DeliveryOutcome.DUPLICATE;
      }
      default -> {
        log.error(
            "consumer {}: event {} reuses an id with another payload (stored sha256 {}, this {});"
                + " quarantined",
            settings.name(),
            eventId,
            outcome.storedSha256(),
            hash);
        return handOff.quarantine(
            d,
            QuarantineReason.CONFLICT,
            "stored sha256 " + outcome.storedSha256() + ", delivered sha256 " + hash);
      }
    }
  }
}

package dev.payrelay.amqp.consume;

import com.rabbitmq.client.AMQP;
import dev.payrelay.amqp.publish.PublishException;
import dev.payrelay.domain.failure.FailureText;
import dev.payrelay.ledger.db.DatabaseErrors;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands a delivery its consumer could not finish to another of the consumer's queues: the delay
 * queue of its next attempt, with a jittered per-message {@code expiration} (the broker
 * dead-letters it back to the work queue when it expires), or the quarantine queue with the reason
 * in headers, after the last delay or at once for a failure no retry can fix. Each republish waits
 * for its publisher confirm before the delivery is acked, so the message is always in at least one
 * queue; when the republish fails, the delivery is nacked with requeue after a pause instead.
 *
 * <p>Counts {@code payrelay.consumer.retries} and {@code payrelay.consumer.quarantined} (tag {@code
 * reason}), both tagged {@code consumer}.
 */
final class QuarantineHandOff {

  // Logged under the consumer kit's name, as before these classes were split out of it.
  private static final Logger log = LoggerFactory.getLogger(InboxConsumer.class);
  private static final int DETAIL_MAX = 1000;

  private final ConsumerSettings settings;
  private final ConsumerQueues queues;
  private final int confirmTimeoutMillis;
  private final Clock clock;
  private final MeterRegistry metrics;
  private final Counter retries;
  private final Runnable queueMissing;

  /**
   * Hands off for {@code settings}' consumer.
   *
   * @param confirmTimeoutMillis how long each republish waits for its confirm
   * @param clock the quarantine timestamps' clock
   * @param queueMissing called after a failed republish, to declare the topology again at once: a
   *     queue deleted at runtime returns the message (UNROUTABLE), and the requeued delivery should
   *     find it
   */
  QuarantineHandOff(
      ConsumerSettings settings,
      int confirmTimeoutMillis,
      Clock clock,
      MeterRegistry metrics,
      Runnable queueMissing) {
    this.settings = settings;
    this.queues = settings.queues();
    this.confirmTimeoutMillis = confirmTimeoutMillis;
    this.clock = clock;
    this.metrics = metrics;
    this.queueMissing = queueMissing;
    this.retries =
        Counter.builder("payrelay.consumer.retries")
            .description("Deliveries sent to a delay queue after a failed handling")
            .tag("consumer", settings.name())
            .register(metrics);
  }

  /**
   * After handling {@code attempt} failed with {@code failure}: to the delay queue of that attempt,
   * or, once every delay of the settings was tried, to quarantine as {@link
   * QuarantineReason#EXHAUSTED}.
   */
  DeliveryOutcome retryOrQuarantine(Delivery d, int attempt, RuntimeException failure) {
    String detail =
        (DatabaseErrors.isTransient(failure) ? "transient: " : "") + FailureText.of(failure);
    if (attempt > settings.retryDelays().size()) {
      return quarantine(
          d, QuarantineReason.EXHAUSTED, "failed " + attempt + " attempt(s); last: " + detail);
    }
    Duration delay = jittered(settings.retryDelays().get(attempt - 1));
    Map<String, Object> headers = d.headersToRepublish();
    headers.put(InboxConsumer.ATTEMPT_HEADER, attempt + 1);
    AMQP.BasicProperties retry =
        d.properties()
            .builder()
            .headers(headers)
            .expiration(Long.toString(delay.toMillis()))
            .build();
    log.warn(
        "consumer {}: event {} failed attempt {} ({}); retrying in {} ms",
        settings.name(),
        d.properties().getMessageId(),
        attempt,
        detail,
        delay.toMillis());
    if (!republish(d, queues.retry(attempt), retry)) {
      d.requeueAfterPause();
      return DeliveryOutcome.REQUEUED;
    }
    retries.increment();
    d.ack();
    return DeliveryOutcome.RETRIED;
  }

  /** To the quarantine queue, with {@code reason}, {@code detail}, the consumer and the time. */
  DeliveryOutcome quarantine(Delivery d, QuarantineReason reason, String detail) {
    Map<String, Object> headers = d.headersToRepublish();
    headers.put(InboxConsumer.REASON_HEADER, reason.name());
    headers.put(InboxConsumer.DETAIL_HEADER, truncate(String.valueOf(detail)));
    headers.put(InboxConsumer.CONSUMER_HEADER, settings.name());
    headers.put(InboxConsumer.QUARANTINED_AT_HEADER, clock.instant().toString());
    headers.put(InboxConsumer.ENTRY_HEADER, QuarantineHeaders.newEntryId());
    AMQP.BasicProperties parked =
        d.properties().builder().headers(headers).expiration(null).build();
    if (!republish(d, queues.quarantine(), parked)) {
      d.requeueAfterPause();
      return DeliveryOutcome.REQUEUED;
    }
    log.error(
        "consumer {}: event {} quarantined in {}: {} {}",
        settings.name(),
        d.properties().getMessageId(),
        queues.quarantine(),
        reason,
        truncate(String.valueOf(detail)));
    Counter.builder("payrelay.consumer.quarantined")
        .description("Messages this consumer moved to its quarantine queue")
        .tags("consumer", settings.name(), "reason", reason.name())
        .register(metrics)
        .increment();
    d.ack();
    return DeliveryOutcome.QUARANTINED;
  }

  /**
   * Publishes {@code d}'s body to {@code queue} by the default exchange and waits for the confirm.
   */
  private boolean republish(Delivery d, String queue, AMQP.BasicProperties properties) {
    try {
      d.republisher().publish("", queue, properties, d.body(), confirmTimeoutMillis);
      return true;
    } catch (PublishException e) {
      log.warn("consumer {}: republish to {} failed: {}", settings.name(), queue, e.getMessage());
      queueMissing.run();
      return false;
    }
  }

  private static Duration jittered(Duration delay) {
    double factor = ThreadLocalRandom.current().nextDouble(0.75, 1.25);
    return Duration.ofMillis(Math.max(1, Math.round(delay.toMillis() * factor)));
  }

  private static String truncate(String text) {
    return text.length() <= DETAIL_MAX ? text : text.substring(0, DETAIL_MAX);
  }
}

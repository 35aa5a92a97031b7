package dev.payrelay.workflows;

import dev.payrelay.domain.failure.PublishFailure;
import dev.payrelay.workflows.activities.MarkDeadRequest;
import dev.payrelay.workflows.activities.OutboxActivities;
import dev.payrelay.workflows.activities.PublishRequest;
import dev.payrelay.workflows.activities.PublishResult;
import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.workflow.TimerOptions;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.slf4j.Logger;

/**
 * Delivers a payment's outbox events: queues them in seq order, once per event id ({@link
 * OutboxEventQueue}), publishes each with its event type's jittered {@link PublishRetryPolicy}, and
 * marks an event DEAD (an {@link Attention} cause) when its publish fails for good. Runs inside
 * {@link PaymentWorkflowImpl}, on its main thread, and inside {@link RefundWorkflowImpl} ({@link
 * RefundPublisher}), telling each its {@link DeliveryStory}.
 */
final class EventDelivery {

  /**
   * One publish attempt per activity call: the workflow runs the retry loop itself, so each event
   * type has its own {@link PublishRetryPolicy} and every pause has jitter (Temporal's RetryOptions
   * has none). Attempts and pauses show in the history as activities and timers.
   */
  private static final ActivityOptions PUBLISH_OPTIONS =
      ActivityOptions.newBuilder()
          // One publish plus its confirm wait; the activity's own confirm timeout is shorter.
          .setStartToCloseTimeout(Duration.ofSeconds(30))
          // A single attempt: the loop in publish() decides whether and when to try again.
          .setRetryOptions(RetryOptions.newBuilder().setMaximumAttempts(1).build())
          .build();

  private static final Set<String> PERMANENT_PUBLISH_FAILURES =
      Set.of(
          ActivityFailures.names(
              Arrays.stream(PublishFailure.values())
                  .filter(f -> !f.retryable())
                  .toArray(Enum[]::new)));

  /** Marking DEAD is one row update; it retries like a grant so the dead mark is not lost. */
  private static final ActivityOptions MARK_DEAD_OPTIONS =
      DatabaseActivityOptions.untilTheDatabaseAnswers(
          // One UPDATE by primary key.
          Duration.ofSeconds(10), PublishFailure.EVENT_NOT_FOUND.name());

  /**
   * As long as the regular attempt: one publish bounds each of its waits (a channel, a reconnect,
   * the confirm) separately, and a timed-out local attempt's thread is not interrupted, so a
   * shorter limit would start the regular attempt while the local one may still publish.
   */
  private static final Duration LOCAL_PUBLISH = Duration.ofSeconds(30);

  private static final Logger log = Workflow.getLogger(EventDelivery.class);

  private final OutboxActivities publisher =
      Workflow.newActivityStub(OutboxActivities.class, PUBLISH_OPTIONS);
  // Attempt 1 of each publish tries a local activity first (LocalFirst); when that fails for a
  // reason that is not permanent (a timeout, a waiting slot, a broker blip), attempt 1 is the
  // regular activity, at once, and only its failure counts against the event's retry policy.
  private final OutboxActivities localPublisher =
      Workflow.newLocalActivityStub(OutboxActivities.class, LocalFirst.oneAttempt(LOCAL_PUBLISH));
  private final OutboxActivities deadLetters =
      Workflow.newActivityStub(OutboxActivities.class, MARK_DEAD_OPTIONS);
  private final OutboxEventQueue events = new OutboxEventQueue();
  private final DeliveryStory story;
  private String inFlightEventId;
  private boolean localFirst;
  // Created on the first retry only: Workflow.newRandom() draws from the seed that also names
  // activities, so creating it up front would change every history (the replay test caught it).
  private Random random;

  EventDelivery(DeliveryStory story) {
    this.story = story;
  }

  /** Whether each publish's first attempt is a local activity (the run's {@link LocalFirst}). */
  void localFirst(boolean enabled) {
    localFirst = enabled;
  }

  /** Queues {@code event} unless its id was seen before (then logs it); returns whether queued. */
  boolean offer(OutboxEventSignal event) {
    if (!events.offer(event)) {
      log.info("ignoring repeated outbox event {} (seq {})", event.eventId(), event.seq());
      return false;
    }
    return true;
  }

  /** Queues an operator's replay of a DEAD event again, although its id was seen. */
  void requeue(OutboxEventSignal event) {
    events.requeue(event);
  }

  /** Whether no event waits to be published (one may still be in flight). */
  boolean nothingQueued() {
    return events.isEmpty();
  }

  /** Whether a publish (with its retries and dead mark) is under way. */
  boolean inFlight() {
    return inFlightEventId != null;
  }

  /** The queued events in seq order (the one in flight is not among them). */
  List<OutboxEventSignal> queued() {
    return events.queuedEvents();
  }

  /** Takes the queued event with the lowest seq, if any. */
  Optional<OutboxEventSignal> take() {
    return events.take();
  }

  /**
   * Publishes {@code event} under {@code policy}, or marks it DEAD; it shows as pending meanwhile.
   */
  void deliver(OutboxEventSignal event, PublishRetryPolicy policy) {
    inFlightEventId = event.eventId();
    publish(event, policy);
    inFlightEventId = null;
  }

  /** The event in flight, then the queued ones in seq order. */
  List<String> pendingEventIds() {
    List<String> pending = new ArrayList<>();
    if (inFlightEventId != null) {
      pending.add(inFlightEventId);
    }
    pending.addAll(events.queuedEventIds());
    return pending;
  }

  private void publish(OutboxEventSignal event, PublishRetryPolicy policy) {
    for (int attempt = 1; ; attempt++) {
      try {
        PublishRequest request = new PublishRequest(event.eventId());
        PublishResult result =
            localFirst && attempt == 1
                ? LocalFirst.call(
                    "publish " + event.eventId(),
                    () -> localPublisher.publish(request),
                    () -> publisher.publish(request),
                    PERMANENT_PUBLISH_FAILURES)
                : publisher.publish(request);
        story.published(event.eventId());
        log.info(
            "published {} {} on attempt {} (already sent: {})",
            event.eventType(),
            event.eventId(),
            attempt,
            result.alreadySent());
        return;
      } catch (ActivityFailure e) {
        String reason = ActivityFailures.reasonOf(e);
        if (isPermanent(e) || attempt >= policy.maxAttempts()) {
          // The event is DEAD, kept with its id and last error for an operator's replay.
          story.needsAttention(
              Attention.dead(event.eventId()),
              "publish " + event.eventId() + " failed after " + attempt + " attempt(s): " + reason);
          markDead(new MarkDeadRequest(event.eventId(), reason));
          return;
        }
        pauseBefore(event, attempt, reason, policy.delayBefore(attempt + 1, random().nextDouble()));
      }
    }
  }

  private void pauseBefore(OutboxEventSignal event, int attempt, String reason, Duration pause) {
    log.warn(
        "publish {} attempt {} failed ({}); next in {}", event.eventId(), attempt, reason, pause);
    story.waitingFor(
        "publish of "
            + event.eventType()
            + " "
            + event.eventId()
            + ": attempt "
            + attempt
            + " failed ("
            + reason
            + "); attempt "
            + (attempt + 1)
            + " at "
            + Instant.ofEpochMilli(Workflow.currentTimeMillis()).plus(pause));
    // A timer with a summary is the same StartTimer command as Workflow.sleep: the summary is user
    // metadata, which replay does not compare.
    Workflow.newTimer(
            pause,
            TimerOptions.newBuilder()
                .setSummary(
                    "publish retry: "
                        + event.eventType()
                        + " "
                        + event.eventId()
                        + " attempt "
                        + (attempt + 1)
                        + " after: "
                        + reason)
                .build())
        .get();
    story.waitingFor(null);
  }

  private Random random() {
    if (random == null) {
      random = Workflow.newRandom();
    }
    return random;
  }

  private static boolean isPermanent(ActivityFailure e) {
    return LocalFirst.isPermanent(e, PERMANENT_PUBLISH_FAILURES);
  }

  private void markDead(MarkDeadRequest request) {
    try {
      deadLetters.markDead(request);
    } catch (ActivityFailure e) {
      story.needsAttention(
          Attention.dead(request.eventId()),
          "mark dead " + request.eventId() + " failed: " + ActivityFailures.reasonOf(e));
    }
  }
}

package dev.payrelay.activities;

import dev.payrelay.amqp.publish.ConfirmingPublisher;
import dev.payrelay.amqp.publish.OutboundMessage;
import dev.payrelay.amqp.publish.PublishException;
import dev.payrelay.domain.crash.CrashPoint;
import dev.payrelay.domain.crash.CrashPoints;
import dev.payrelay.domain.event.EventType;
import dev.payrelay.domain.event.OutboxStatus;
import dev.payrelay.domain.event.PayloadVersions;
import dev.payrelay.domain.failure.PublishFailure;
import dev.payrelay.ledger.outbox.DeadEvents;
import dev.payrelay.ledger.outbox.OutboxRow;
import dev.payrelay.ledger.outbox.OutboxStore;
import dev.payrelay.workflows.PaymentLogContext;
import dev.payrelay.workflows.PaymentWorkflow;
import dev.payrelay.workflows.activities.EventOperationRequest;
import dev.payrelay.workflows.activities.EventOperationResult;
import dev.payrelay.workflows.activities.MarkDeadRequest;
import dev.payrelay.workflows.activities.OutboxActivities;
import dev.payrelay.workflows.activities.PublishRequest;
import dev.payrelay.workflows.activities.PublishResult;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.temporal.failure.ApplicationErrorCategory;
import io.temporal.failure.ApplicationFailure;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes outbox rows through a {@link ConfirmingPublisher} and marks them SENT only after the
 * broker's confirm with no return (DESIGN invariant 6). A failed publish leaves the row un-SENT
 * with the attempt counted and the error kept, and fails the activity with the {@link
 * PublishFailure} type so Temporal retries it.
 *
 * <p>Each failed attempt counts in {@code payrelay.outbox.publish_failures{event_type, failure}}
 * ({@link #PUBLISH_FAILURES}; failure is the {@link PublishFailure} type, e.g. UNROUTABLE). The
 * SDK's {@code temporal_activity_execution_failed} does not count them: broker failures are BENIGN
 * application failures, which the SDK leaves out of that counter.
 */
public final class OutboxActivitiesImpl implements OutboxActivities {

  private static final Logger log = LoggerFactory.getLogger(OutboxActivitiesImpl.class);

  /** Payload versions this build can publish, per event type (all version 1 today). */
  private static final Set<Integer> KNOWN_VERSIONS = Set.of(1);

  /** The counter of failed publish attempts. */
  public static final String PUBLISH_FAILURES = "payrelay.outbox.publish_failures";

  private final OutboxStore outbox;
  private final DeadEventOperations operations;
  private final ConfirmingPublisher publisher;
  private final CrashPoints crashPoints;
  private final MeterRegistry metrics;
  private final Function<String, Optional<String>> refundPayment;

  /**
   * Activities over {@code outbox} and {@code deadEvents}, publishing with {@code publisher}; an
   * operator's replay or discard is audited under the operator {@code identity} vouches for.
   */
  public OutboxActivitiesImpl(
      OutboxStore outbox,
      DeadEvents deadEvents,
      SignalIdentity identity,
      ConfirmingPublisher publisher) {
    this(outbox, deadEvents, identity, publisher, CrashPoints.none(), new SimpleMeterRegistry());
  }

  /**
   * As above, passing {@link CrashPoint#PUBLISH_AFTER_CONFIRM} between the broker's confirm and the
   * SENT mark, {@link CrashPoint#PUBLISH_AFTER_SENT} after it, and {@link
   * CrashPoint#OPERATOR_AFTER_COMMIT} after an operator's replay or discard committed; failed
   * publish attempts counted in {@code metrics}.
   */
  public OutboxActivitiesImpl(
      OutboxStore outbox,
      DeadEvents deadEvents,
      SignalIdentity identity,
      ConfirmingPublisher publisher,
      CrashPoints crashPoints,
      MeterRegistry metrics) {
    this(
        outbox,
        deadEvents,
        identity,
        publisher,
        crashPoints,
        metrics,
        refundId -> Optional.empty());
  }

  /**
   * As above, letting a refund's workflow ({@code refund-{refundId}}) publish its refund's events:
   * {@code refundPayment} names the payment of a refund by its id (empty for none).
   */
  public OutboxActivitiesImpl(
      OutboxStore outbox,
      DeadEvents deadEvents,
      SignalIdentity identity,
      ConfirmingPublisher publisher,
      CrashPoints crashPoints,
      MeterRegistry metrics,
      Function<String, Optional<String>> refundPayment) {
    this.refundPayment = refundPayment;
    this.outbox = outbox;
    this.operations = new DeadEventOperations(deadEvents, identity, crashPoints);
    this.publisher = publisher;
    this.crashPoints = crashPoints;
    this.metrics = metrics;
  }

  @Override
  public PublishResult publish(PublishRequest request) {
    try (PaymentLogContext ignored = PaymentLogContext.of(null, request.eventId())) {
      return publishNow(request);
    }
  }

  private PublishResult publishNow(PublishRequest request) {
    OutboxRow row =
        outbox
            .find(request.eventId())
            .orElseThrow(
                () ->
                    failure(
                        PublishFailure.EVENT_NOT_FOUND,
                        "no outbox event " + request.eventId(),
                        null));
    if (!CallingPayment.owns(row.aggregateId(), row.factKey(), refundPayment)) {
      // onOutboxEvent sent by hand with another payment's (or refund's) event id: refused, and
      // the other payment's event is left as it is.
      throw failure(
          PublishFailure.EVENT_NOT_FOUND,
          "no outbox event "
              + request.eventId()
              + " of "
              + CallingPayment.describe()
              + " (it is another payment's or refund's; "
              + PaymentWorkflow.INTERNAL_OUTBOX_SIGNAL_NAME
              + " is sent only by payrelay's outbox dispatcher)",
          null);
    }
    if (row.status() == OutboxStatus.SENT) {
      return new PublishResult(row.eventId(), true);
    }
    if (row.status() == OutboxStatus.DEAD || row.status() == OutboxStatus.DISCARDED) {
      // Only an operator's replay (DEAD -> DISPATCHED) may publish it again.
      throw failure(
          PublishFailure.EVENT_DEAD,
          "event " + row.eventId() + " is " + row.status() + ": " + row.lastError(),
          null);
    }
    try {
      publisher.publish(toMessage(row));
    } catch (PublishException e) {
      throw failedAttempt(row, e);
    }
    crashPoints.reach(CrashPoint.PUBLISH_AFTER_CONFIRM);
    outbox.markSent(row.eventId());
    crashPoints.reach(CrashPoint.PUBLISH_AFTER_SENT);
    log.info("event {} ({}) published and SENT", row.eventId(), row.eventType());
    return new PublishResult(row.eventId(), false);
  }

  /**
   * Records a failed publish attempt on the row (attempt counted, error kept), counts it in {@link
   * #PUBLISH_FAILURES} and logs it; returns the activity's failure to throw.
   */
  private ApplicationFailure failedAttempt(OutboxRow row, PublishException e) {
    String cause =
        e.getMessage().startsWith(e.failure().name())
            ? e.getMessage()
            : e.failure() + ": " + e.getMessage();
    outbox.recordPublishFailure(row.eventId(), cause);
    metrics
        .counter(PUBLISH_FAILURES, "event_type", row.eventType(), "failure", e.failure().name())
        .increment();
    // One line per failed attempt: a broker outage is expected, its stack says nothing new.
    log.warn(
        "publish of {} ({}) attempt {} failed: {}",
        row.eventId(),
        row.eventType(),
        row.attempts() + 1,
        cause);
    return brokerFailure(e);
  }

  @Override
  public void markDead(MarkDeadRequest request) {
    try (PaymentLogContext ignored = PaymentLogContext.of(null, request.eventId())) {
      Optional<OutboxRow> row = outbox.find(request.eventId());
      if (row.isPresent()
          && !CallingPayment.owns(row.get().aggregateId(), row.get().factKey(), refundPayment)) {
        log.warn(
            "event {} is not an event of {}: not marked DEAD",
            request.eventId(),
            CallingPayment.describe());
        return;
      }
      if (outbox.markDead(request.eventId(), request.reason())) {
        log.error("event {} is DEAD: {}", request.eventId(), request.reason());
      }
    }
  }

  @Override
  public EventOperationResult replayDead(EventOperationRequest r) {
    return operations.replay(r);
  }

  @Override
  public EventOperationResult discardDead(EventOperationRequest r) {
    return operations.discard(r);
  }

  @Override
  public EventOperationResult rejectOperation(EventOperationRequest r) {
    return operations.reject(r);
  }

  private static OutboundMessage toMessage(OutboxRow row) {
    try {
      EventType.fromWireName(row.eventType());
    } catch (IllegalArgumentException e) {
      throw failure(PublishFailure.BAD_PAYLOAD, e.getMessage(), e);
    }
    if (!KNOWN_VERSIONS.contains(row.payloadVersion())) {
      throw failure(
          PublishFailure.BAD_PAYLOAD,
          PayloadVersions.unknown(
              row.eventId(), row.eventType(), row.payloadVersion(), KNOWN_VERSIONS),
          null);
    }
    return new OutboundMessage(
        row.eventId(),
        row.eventType(),
        row.payloadVersion(),
        row.routingKey(),
        row.aggregateId(),
        row.seq(),
        row.paymentSeq(),
        row.payload().getBytes(StandardCharsets.UTF_8));
  }

  /**
   * The broker refused or failed a publish: an expected failure the workflow retries, so it is
   * BENIGN (Temporal's SDK then logs it at DEBUG, without the stack trace on every attempt), with
   * the broker's exception kept as its cause for the Temporal UI.
   */
  /**
   * The activity failure for a broker's refusal, typed by its {@link PublishFailure}; the message
   * leaves out the type's name where the exception's message begins with it, since the workflow
   * shows a failure as {@code type: message} ("UNROUTABLE: UNROUTABLE: returned …" otherwise).
   */
  private static ApplicationFailure brokerFailure(PublishException e) {
    String prefix = e.failure().name() + ": ";
    String message = e.getMessage();
    return ApplicationFailure.newBuilder()
        .setMessage(message.startsWith(prefix) ? message.substring(prefix.length()) : message)
        .setType(e.failure().name())
        .setNonRetryable(!e.failure().retryable())
        .setCause(e)
        .setCategory(ApplicationErrorCategory.BENIGN)
        .build();
  }

  private static ApplicationFailure failure(PublishFailure type, String message, Throwable cause) {
    return type.retryable()
        ? ApplicationFailure.newFailureWithCause(message, type.name(), cause)
        : ApplicationFailure.newNonRetryableFailureWithCause(message, type.name(), cause);
  }
}

package dev.payrelay.api.webhook;

import dev.payrelay.domain.channel.ChannelRegistry;
import dev.payrelay.domain.channel.ChannelReply;
import dev.payrelay.domain.channel.VerifiedCallback;
import dev.payrelay.ledger.db.DatabaseErrors;
import dev.payrelay.ledger.inbox.InboxCompletion;
import dev.payrelay.ledger.inbox.WebhookInboxStore;
import io.micrometer.core.instrument.MeterRegistry;
import org.jooq.exception.DataAccessException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What becomes of a stored callback besides the ledger's change: its inbox row's outcome, the
 * {@code payrelay.webhook.callbacks} counter (tags {@code channel}, configured names only, and
 * {@code outcome}), and, for a refused one, the channel's refusal answer and a rate-limited WARN
 * line ({@link RejectionLog}).
 */
final class CallbackOutcomes {

  // Logged under the service's name, as before this class was split out of it.
  private static final Logger log = LoggerFactory.getLogger(WebhookService.class);
  private static final String JSON = "application/json";
  private static final String CALLBACKS = "payrelay.webhook.callbacks";

  private final WebhookInboxStore inbox;
  private final ChannelRegistry channels;
  private final MeterRegistry metrics;
  private final RejectionLog rejectionLog = new RejectionLog(log);

  /** Records into {@code inbox} and {@code metrics}; refusals in {@code channels}' protocols. */
  CallbackOutcomes(WebhookInboxStore inbox, ChannelRegistry channels, MeterRegistry metrics) {
    this.inbox = inbox;
    this.channels = channels;
    this.metrics = metrics;
  }

  /** The 503 for a callback the inbox could not store: not acknowledged, so the channel retries. */
  WebhookResponse notStored(String channelName, DataAccessException e) {
    log.error("callback on {} could not be stored: {}", channelName, e.toString());
    count(channelName, "NOT_STORED");
    return new WebhookResponse(503, JSON, "{\"error\":\"NOT_STORED\"}", -1);
  }

  /**
   * The 503 for a stored callback whose decision failed on {@code cause}: the channel's retry
   * decides it again. The row records {@value WebhookService#NOT_DECIDED}, and the payment and
   * notification of {@code verified} (null when it failed before verification), so that outcome
   * RECEIVED is left only to a request whose process stopped (or whose database went away)
   * mid-decision, which {@code payrelay check} reports. Whatever the decision wrote was rolled back
   * with its transaction; a database that fails this too leaves the row RECEIVED.
   */
  WebhookResponse notDecided(
      long inboxId, String channelName, DataAccessException cause, VerifiedCallback verified) {
    String why = DatabaseErrors.describe(cause);
    log.error("callback {} stored but not decided: {}", inboxId, why);
    try {
      inbox.complete(
          inboxId,
          new InboxCompletion(
              verified == null ? null : true,
              WebhookService.NOT_DECIDED,
              why,
              503,
              verified == null ? null : verified.paymentId(),
              verified == null ? null : verified.notificationId()));
    } catch (RuntimeException e) {
      log.error(
          "callback {}: its NOT_DECIDED outcome was not recorded either: {}",
          inboxId,
          e.toString());
    }
    count(channelName, WebhookService.NOT_DECIDED);
    return new WebhookResponse(
        503,
        JSON,
        "{\"error\":\"" + WebhookService.NOT_DECIDED + "\",\"inboxId\":" + inboxId + "}",
        inboxId);
  }

  /** Records {@code c} and answers the refusal in the channel's protocol (JSON for no channel). */
  WebhookResponse reject(long inboxId, String channel, InboxCompletion c) {
    complete(inboxId, channel, c);
    rejectionLog.rejected(inboxId, c.outcome(), c.detail());
    ChannelReply refusal =
        channels
            .find(channel)
            .map(adapter -> adapter.refusal(c.outcome(), c.httpStatus(), inboxId))
            .orElseGet(() -> ChannelReply.jsonRefusal(c.outcome(), c.httpStatus(), inboxId));
    return new WebhookResponse(
        refusal.httpStatus(), refusal.contentType(), refusal.body(), inboxId);
  }

  /**
   * Records the outcome of an applied callback. The ledger has committed, so a failure here must
   * not turn the channel's answer into an error: the row keeps outcome RECEIVED and the log says
   * why.
   */
  void completeAfterCommit(long inboxId, String channel, InboxCompletion c) {
    try {
      complete(inboxId, channel, c);
    } catch (DataAccessException e) {
      log.error(
          "callback {} applied ({}) but its inbox row was not updated: {}",
          inboxId,
          c.outcome(),
          e.toString());
    }
  }

  /** Counts one callback on {@code channel} with {@code outcome}. */
  void count(String channel, String outcome) {
    metrics.counter(CALLBACKS, "channel", label(channel), "outcome", outcome).increment();
  }

  private void complete(long inboxId, String channel, InboxCompletion c) {
    inbox.complete(inboxId, c);
    count(channel, c.outcome());
  }

  /** The channel as a metric label: only configured names, so a URL cannot mint time series. */
  private String label(String channel) {
    return channels.find(channel).isPresent() ? channel : "unknown";
  }
}

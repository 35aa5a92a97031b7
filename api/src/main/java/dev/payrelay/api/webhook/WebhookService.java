package dev.payrelay.api.webhook;

import dev.payrelay.domain.channel.CallbackOutcome;
import dev.payrelay.domain.channel.CallbackRejectedException;
import dev.payrelay.domain.channel.CallbackRequest;
import dev.payrelay.domain.channel.ChannelAccount;
import dev.payrelay.domain.channel.ChannelRegistry;
import dev.payrelay.domain.channel.ChannelReply;
import dev.payrelay.domain.channel.PaymentChannel;
import dev.payrelay.domain.channel.VerifiedCallback;
import dev.payrelay.domain.crash.CrashPoint;
import dev.payrelay.domain.crash.CrashPoints;
import dev.payrelay.ledger.db.DatabaseErrors;
import dev.payrelay.ledger.inbox.InboxCompletion;
import dev.payrelay.ledger.inbox.ReceivedCallback;
import dev.payrelay.ledger.inbox.WebhookInboxStore;
import dev.payrelay.ledger.payment.LedgerResult;
import dev.payrelay.ledger.payment.PaymentLedger;
import dev.payrelay.ledger.payment.PaymentRow;
import dev.payrelay.workflows.PaymentLogContext;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import org.jooq.exception.DataAccessException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ingests a channel callback: store it raw, verify it over the raw bytes with the secret of one
 * merchant account (the one named in the URL, else the one that owns the payment it names: {@link
 * ChannelRegistry#forMerchant}), apply it to the ledger in one transaction, answer the channel only
 * after commit (DESIGN: ingestion needs the database alone). The verifying account decides the
 * merchant, and so the tenant: a callback about another account's payment is refused 403 with
 * outcome {@code OTHER_ACCOUNT}, whatever merchant its body names. Every request that reached us
 * ends in the inbox with its outcome, rejected ones too.
 */
public final class WebhookService {

  private static final Logger log = LoggerFactory.getLogger(WebhookService.class);
  private static final String JSON = "application/json";
  private static final String CALLBACKS = "payrelay.webhook.callbacks";

  /**
   * The outcome of a stored callback whose decision failed on a database error (a lock wait or
   * deadlock that outlasted its retries, a lost connection): answered 503, so the channel retries.
   */
  public static final String NOT_DECIDED = "NOT_DECIDED";

  /**
   * The answer to a verified callback about another merchant account's payment: 403 Forbidden, the
   * signer is authenticated but not allowed to speak for that payment (RFC 9110 section 15.5.4).
   */
  private static final int OTHER_ACCOUNT_STATUS = 403;

  private final WebhookInboxStore inbox;
  private final PaymentLedger ledger;
  private final ChannelRegistry channels;
  private final MeterRegistry metrics;
  private final Clock clock;
  private final Runnable outboxCommitted;
  private final CrashPoints crashPoints;
  private final RejectionLog rejectionLog = new RejectionLog(log);

  /**
   * A service writing through {@code inbox} and {@code ledger}, counting into {@code metrics}.
   *
   * @param outboxCommitted called after a transaction that wrote an outbox event committed (wakes
   *     an in-process dispatcher; a no-op when the dispatcher runs elsewhere)
   */
  public WebhookService(
      WebhookInboxStore inbox,
      PaymentLedger ledger,
      ChannelRegistry channels,
      MeterRegistry metrics,
      Clock clock,
      Runnable outboxCommitted) {
    this(inbox, ledger, channels, metrics, clock, outboxCommitted, CrashPoints.none());
  }

  /**
   * As above, passing {@link CrashPoint#WEBHOOK_AFTER_COMMIT} once the ledger has committed a
   * callback's decision and before the channel gets its answer.
   */
  public WebhookService(
      WebhookInboxStore inbox,
      PaymentLedger ledger,
      ChannelRegistry channels,
      MeterRegistry metrics,
      Clock clock,
      Runnable outboxCommitted,
      CrashPoints crashPoints) {
    this.inbox = inbox;
    this.ledger = ledger;
    this.channels = channels;
    this.metrics = metrics;
    this.clock = clock;
    this.outboxCommitted = outboxCommitted;
    this.crashPoints = crashPoints;
  }

  /**
   * Handles one callback.
   *
   * @param channelName the channel named in the URL
   * @param headers the request headers
   * @param rawBody the exact request bytes
   * @param remoteAddr the peer, for the inbox
   * @return the answer: the channel's protocol reply for a verified callback; 401/400 with its
   *     {@link PaymentChannel#refusal} for a rejected one; 404 for an unknown channel; 503 when the
   *     database failed (the channel retries; a stored request gets outcome {@value #NOT_DECIDED},
   *     or keeps RECEIVED when the database cannot take even that)
   */
  public WebhookResponse handle(
      String channelName, Map<String, String> headers, byte[] rawBody, String remoteAddr) {
    return handle(channelName, null, headers, rawBody, remoteAddr, false);
  }

  /**
   * Handles one callback whose body may have been cut at the size limit.
   *
   * @param merchantId the merchant account named in the URL ({@code
   *     /v1/webhooks/{channel}/{merchantId}}), whose adapter alone verifies the callback; null for
   *     the channel's own URL, where the account of the payment the callback names verifies it
   * @param truncated true when the request body was longer than the limit and {@code rawBody} holds
   *     only its first bytes: recorded, then refused with 413
   */
  public WebhookResponse handle(
      String channelName,
      String merchantId,
      Map<String, String> headers,
      byte[] rawBody,
      String remoteAddr,
      boolean truncated) {
    long inboxId;
    try {
      inboxId = inbox.record(new ReceivedCallback(channelName, headers, rawBody, remoteAddr));
    } catch (DataAccessException e) {
      // Not stored, so not acknowledged: the channel's retry will bring it again.
      log.error("callback on {} could not be stored: {}", channelName, e.toString());
      metrics
          .counter(CALLBACKS, "channel", label(channelName), "outcome", "NOT_STORED")
          .increment();
      return new WebhookResponse(503, JSON, "{\"error\":\"NOT_STORED\"}", -1);
    }
    try {
      return decide(inboxId, channelName, merchantId, headers, rawBody, truncated);
    } catch (DataAccessException e) {
      return notDecided(inboxId, channelName, e, null);
    }
  }

  /**
   * The 503 for a stored callback whose decision failed on {@code cause}: the channel's retry
   * decides it again. The row records {@value #NOT_DECIDED}, and the payment and notification of
   * {@code verified} (null when it failed before verification), so that outcome RECEIVED is left
   * only to a request whose process stopped (or whose database went away) mid-decision, which
   * {@code payrelay check} reports. Whatever the decision wrote was rolled back with its
   * transaction; a database that fails this too leaves the row RECEIVED.
   */
  private WebhookResponse notDecided(
      long inboxId, String channelName, DataAccessException cause, VerifiedCallback verified) {
    String why = DatabaseErrors.describe(cause);
    log.error("callback {} stored but not decided: {}", inboxId, why);
    try {
      inbox.complete(
          inboxId,
          new InboxCompletion(
              verified == null ? null : true,
              NOT_DECIDED,
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
    metrics.counter(CALLBACKS, "channel", label(channelName), "outcome", NOT_DECIDED).increment();
    return new WebhookResponse(
        503, JSON, "{\"error\":\"" + NOT_DECIDED + "\",\"inboxId\":" + inboxId + "}", inboxId);
  }

  private WebhookResponse decide(
      long inboxId,
      String channelName,
      String merchantId,
      Map<String, String> headers,
      byte[] rawBody,
      boolean truncated) {
    Optional<PaymentChannel> channel = channels.find(channelName);
    if (channel.isEmpty()) {
      return reject(
          inboxId,
          channelName,
          new InboxCompletion(
              null, "UNKNOWN_CHANNEL", "no channel " + channelName, 404, null, null));
    }
    if (truncated) {
      return reject(
          inboxId,
          channelName,
          new InboxCompletion(
              null,
              "PAYLOAD_TOO_LARGE",
              "body longer than the limit; first bytes kept",
              413,
              null,
              null));
    }
    if (!hasMediaType(headers, channel.get().callbackMediaType())) {
      return reject(
          inboxId,
          channelName,
          new InboxCompletion(
              null,
              "UNSUPPORTED_MEDIA_TYPE",
              "Content-Type must be "
                  + channel.get().callbackMediaType()
                  + ", was "
                  + contentType(headers),
              415,
              null,
              null));
    }
    CallbackRequest request = new CallbackRequest(headers, rawBody, clock.instant());
    // Read once: its merchant account verifies the callback, and the ledger decides on it first.
    PaymentRow claimed =
        merchantId != null
            ? null
            : channel.get().claimedPaymentId(request).flatMap(ledger::payment).orElse(null);
    Optional<ChannelAccount> verifier =
        merchantId != null
            ? channels.forMerchant(channelName, merchantId)
            : verifier(channelName, claimed);
    if (verifier.isEmpty()) {
      return reject(
          inboxId,
          channelName,
          new InboxCompletion(
              false,
              "UNKNOWN_ACCOUNT",
              merchantId != null
                  ? "no merchant account " + merchantId + " is configured at " + channelName
                  : "no configured merchant account owns the payment this callback names",
              401,
              null,
              null));
    }
    VerifiedCallback callback;
    try {
      callback = verifier.get().adapter().verifyCallback(request);
    } catch (CallbackRejectedException e) {
      return reject(
          inboxId,
          channelName,
          new InboxCompletion(
              false, e.reason().name(), e.getMessage(), e.reason().httpStatus(), null, null));
    }
    try (PaymentLogContext context = PaymentLogContext.of(callback.paymentId(), null)) {
      return apply(inboxId, channelName, channel.get(), verifier.get(), callback, claimed, context);
    } catch (DataAccessException e) {
      return notDecided(inboxId, channelName, e, callback);
    }
  }

  /**
   * Applies a callback that {@code account} verified in the ledger's one transaction and answers
   * the channel; a callback about a payment of another account is refused ({@link
   * CallbackOutcome#OTHER_ACCOUNT}).
   */
  private WebhookResponse apply(
      long inboxId,
      String channelName,
      PaymentChannel channel,
      ChannelAccount account,
      VerifiedCallback callback,
      PaymentRow claimed,
      PaymentLogContext context) {
    LedgerResult result =
        ledger.applyCallback(
            channelName,
            account.merchantId(),
            callback,
            inboxId,
            channel.reply(CallbackOutcome.CONFIRMED).httpStatus(),
            claimed);
    if (result.outcome() == CallbackOutcome.OTHER_ACCOUNT) {
      return reject(inboxId, channelName, verified(result, callback, OTHER_ACCOUNT_STATUS, null));
    }
    context.withEvent(result.eventId());
    crashPoints.reach(CrashPoint.WEBHOOK_AFTER_COMMIT);
    if (result.eventId() != null) {
      outboxCommitted.run();
    }
    ChannelReply reply = channel.reply(result.outcome());
    if (result.outcome() == CallbackOutcome.CONFIRMED) {
      // The ledger's transaction completed the inbox row.
      count(channelName, result.outcome().name());
    } else {
      completeAfterCommit(
          inboxId,
          channelName,
          verified(result, callback, reply.httpStatus(), callback.paymentId()));
    }
    if (result.outcome() == CallbackOutcome.OTHER_CHANNEL) {
      log.warn(
          "callback {} on {} names another channel's payment: {}",
          inboxId,
          channelName,
          result.detail());
    }
    log.info(
        "callback {} payment={} txn={} outcome={} http={}",
        inboxId,
        callback.paymentId(),
        callback.channelTxnId(),
        result.outcome(),
        reply.httpStatus());
    return new WebhookResponse(reply.httpStatus(), reply.contentType(), reply.body(), inboxId);
  }

  /** The inbox outcome of a verified callback the ledger decided as {@code result}. */
  private static InboxCompletion verified(
      LedgerResult result, VerifiedCallback callback, int httpStatus, String paymentId) {
    return new InboxCompletion(
        true,
        result.outcome().name(),
        result.detail(),
        httpStatus,
        paymentId,
        callback.notificationId());
  }

  /**
   * The account that verifies a callback at the channel's own URL: the merchant account the payment
   * it names ({@code claimed}) was created with; the channel's default account when the callback
   * names no payment we have at this channel. Either way the ledger refuses what it verified about
   * another account's payment ({@link CallbackOutcome#OTHER_ACCOUNT}), so the default account's
   * secret never confirms a tenant account's payment. Empty when the payment's account is no longer
   * configured.
   */
  private Optional<ChannelAccount> verifier(String channelName, PaymentRow claimed) {
    if (claimed == null || !claimed.channel().equals(channelName)) {
      return channels.defaultAccount(channelName);
    }
    return channels.forMerchant(channelName, claimed.merchantId());
  }

  private WebhookResponse reject(long inboxId, String channel, InboxCompletion c) {
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
  private void completeAfterCommit(long inboxId, String channel, InboxCompletion c) {
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

  private void complete(long inboxId, String channel, InboxCompletion c) {
    inbox.complete(inboxId, c);
    count(channel, c.outcome());
  }

  private void count(String channel, String outcome) {
    metrics.counter(CALLBACKS, "channel", label(channel), "outcome", outcome).increment();
  }

  /** The channel as a metric label: only configured names, so a URL cannot mint time series. */
  private String label(String channel) {
    return channels.find(channel).isPresent() ? channel : "unknown";
  }

  /**
   * Whether {@code Content-Type} is the channel's {@link PaymentChannel#callbackMediaType()};
   * parameters such as charset are allowed (RFC 9110 section 8.3.1: type and subtype are
   * case-insensitive).
   */
  private static boolean hasMediaType(Map<String, String> headers, String mediaType) {
    String type = contentType(headers);
    return type != null
        && type.toLowerCase(java.util.Locale.ROOT).split(";", 2)[0].trim().equals(mediaType);
  }

  private static String contentType(Map<String, String> headers) {
    return headers.entrySet().stream()
        .filter(e -> e.getKey().equalsIgnoreCase("Content-Type"))
        .map(Map.Entry::getValue)
        .findFirst()
        .orElse(null);
  }
}

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
  private final Clock clock;
  private final Runnable outboxCommitted;
  private final CrashPoints crashPoints;
  private final CallbackOutcomes outcomes;

  /**
   * A service writing through {@code inbox} and {@code ledger}, counting into {@code metrics}.
   *
   * @param outboxCommitted called after a transaction that wrote an outbox event committed (wakes
   *     an in-process dispatcher; a no-op when the dispatcher runs elsewhere)
   * @param crashPoints passes {@link CrashPoint#WEBHOOK_AFTER_COMMIT} once the ledger has committed
   *     a callback's decision and before the channel gets its answer; {@link CrashPoints#none()}
   *     outside crash tests
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
    this.clock = clock;
    this.outboxCommitted = outboxCommitted;
    this.crashPoints = crashPoints;
    this.outcomes = new CallbackOutcomes(inbox, channels, metrics);
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
      return outcomes.notStored(channelName, e);
    }
    try {
      return decide(inboxId, channelName, merchantId, headers, rawBody, truncated);
    } catch (DataAccessException e) {
      return outcomes.notDecided(inboxId, channelName, e, null);
    }
  }

  /** Refuses what cannot be verified, verifies the rest with one account's secret, applies it. */
  private WebhookResponse decide(
      long inboxId,
      String channelName,
      String merchantId,
      Map<String, String> headers,
      byte[] rawBody,
      boolean truncated) {
    Optional<PaymentChannel> channel = channels.find(channelName);
    InboxCompletion unverifiable = unverifiable(channelName, channel, headers, truncated);
    if (unverifiable != null) {
      return outcomes.reject(inboxId, channelName, unverifiable);
    }
    CallbackRequest request = new CallbackRequest(headers, rawBody, clock.instant());
    // Read once: its merchant account verifies the callback, and the ledger decides on it first.
    PaymentRow claimed =
        merchantId != null
            ? null
            : channel.get().claimedPaymentId(request).flatMap(ledger::payment).orElse(null);
    Optional<ChannelAccount> verifier = verifier(channelName, merchantId, claimed);
    if (verifier.isEmpty()) {
      return outcomes.reject(inboxId, channelName, unknownAccount(channelName, merchantId));
    }
    VerifiedCallback callback;
    try {
      callback = verifier.get().adapter().verifyCallback(request);
    } catch (CallbackRejectedException e) {
      return outcomes.reject(
          inboxId,
          channelName,
          new InboxCompletion(
              false, e.reason().name(), e.getMessage(), e.reason().httpStatus(), null, null));
    }
    try (PaymentLogContext context = PaymentLogContext.of(callback.paymentId(), null)) {
      return apply(inboxId, channelName, channel.get(), verifier.get(), callback, claimed, context);
    } catch (DataAccessException e) {
      return outcomes.notDecided(inboxId, channelName, e, callback);
    }
  }

  /**
   * The refusal of a callback no account needs to look at: an unknown channel (404), a body cut at
   * the size limit (413), another media type than the channel's (415); null for none of these.
   */
  private static InboxCompletion unverifiable(
      String channelName,
      Optional<PaymentChannel> channel,
      Map<String, String> headers,
      boolean truncated) {
    if (channel.isEmpty()) {
      return new InboxCompletion(
          null, "UNKNOWN_CHANNEL", "no channel " + channelName, 404, null, null);
    }
    if (truncated) {
      return new InboxCompletion(
          null,
          "PAYLOAD_TOO_LARGE",
          "body longer than the limit; first bytes kept",
          413,
          null,
          null);
    }
    if (!hasMediaType(headers, channel.get().callbackMediaType())) {
      return new InboxCompletion(
          null,
          "UNSUPPORTED_MEDIA_TYPE",
          "Content-Type must be "
              + channel.get().callbackMediaType()
              + ", was "
              + contentType(headers),
          415,
          null,
          null);
    }
    return null;
  }

  /** The refusal (401) of a callback no configured merchant account may verify. */
  private static InboxCompletion unknownAccount(String channelName, String merchantId) {
    return new InboxCompletion(
        false,
        "UNKNOWN_ACCOUNT",
        merchantId != null
            ? "no merchant account " + merchantId + " is configured at " + channelName
            : "no configured merchant account owns the payment this callback names",
        401,
        null,
        null);
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
      return outcomes.reject(
          inboxId, channelName, verified(result, callback, OTHER_ACCOUNT_STATUS, null));
    }
    context.withEvent(result.eventId());
    crashPoints.reach(CrashPoint.WEBHOOK_AFTER_COMMIT);
    if (result.eventId() != null) {
      outboxCommitted.run();
    }
    ChannelReply reply = channel.reply(result.outcome());
    recordApplied(inboxId, channelName, callback, result, reply);
    return new WebhookResponse(reply.httpStatus(), reply.contentType(), reply.body(), inboxId);
  }

  /**
   * Counts and logs a callback the ledger decided; records its outcome in the inbox unless it was
   * CONFIRMED, whose row the ledger's transaction completed.
   */
  private void recordApplied(
      long inboxId,
      String channelName,
      VerifiedCallback callback,
      LedgerResult result,
      ChannelReply reply) {
    if (result.outcome() == CallbackOutcome.CONFIRMED) {
      outcomes.count(channelName, result.outcome().name());
    } else {
      outcomes.completeAfterCommit(
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
   * The account that verifies a callback: at a merchant account's URL ({@code merchantId} not
   * null), that account. At the channel's own URL, the merchant account the payment it names
   * ({@code claimed}) was created with; the channel's default account when the callback names no
   * payment we have at this channel. Either way the ledger refuses what it verified about another
   * account's payment ({@link CallbackOutcome#OTHER_ACCOUNT}), so the default account's secret
   * never confirms a tenant account's payment. Empty when that account is not (or no longer)
   * configured.
   */
  private Optional<ChannelAccount> verifier(
      String channelName, String merchantId, PaymentRow claimed) {
    if (merchantId != null) {
      return channels.forMerchant(channelName, merchantId);
    }
    if (claimed == null || !claimed.channel().equals(channelName)) {
      return channels.defaultAccount(channelName);
    }
    return channels.forMerchant(channelName, claimed.merchantId());
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

package dev.payrelay.channels.stripe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.stripe.StripeClient;
import com.stripe.model.PaymentIntent;
import dev.payrelay.domain.channel.CallbackOutcome;
import dev.payrelay.domain.channel.CallbackRejectedException;
import dev.payrelay.domain.channel.CallbackRejectedException.Reason;
import dev.payrelay.domain.channel.CallbackRequest;
import dev.payrelay.domain.channel.ChannelException;
import dev.payrelay.domain.channel.ChannelPaymentRequest;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.ChannelQueryResult;
import dev.payrelay.domain.channel.ChannelRefundRequest;
import dev.payrelay.domain.channel.ChannelRefundResult;
import dev.payrelay.domain.channel.ChannelRegistration;
import dev.payrelay.domain.channel.ChannelReply;
import dev.payrelay.domain.channel.PaymentChannel;
import dev.payrelay.domain.channel.StatementPage;
import dev.payrelay.domain.channel.VerifiedCallback;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.Optional;

/**
 * The adapter for Stripe (PaymentIntents and webhooks), through Stripe's official Java SDK.
 *
 * <p>Callbacks are webhook events verified by {@link StripeWebhook} (SDK {@code
 * Webhook.constructEvent}) and parsed by {@link StripeCallbackParser}; statuses come from {@link
 * StripeStatuses}, amounts from {@link StripeAmounts}. API calls go through a {@link StripeClient}
 * whose API base is {@link StripeChannelConfig#apiBase()} (the {@code StripeSimulator} in tests).
 * One instance serves one Stripe account. Thread-safe; holds no database or broker state.
 */
public final class StripeChannel implements PaymentChannel {

  /** The channel name used in webhook URLs and {@code channel} columns. */
  public static final String NAME = "stripe";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final StripeChannelConfig config;
  private final StripeWebhook webhook;
  private final StripeCallbackParser parser;
  private final StripeApi api;
  private final StripeRefunds refunds;
  private final StripeStatementReader statements;

  /**
   * @param config our account, keys, API base, timeouts and statement zone
   * @param clock the time source for the signature tolerance window
   */
  public StripeChannel(StripeChannelConfig config, Clock clock) {
    this.config = config;
    StripeClient client =
        StripeClient.builder()
            .setApiKey(config.apiKey())
            .setApiBase(config.apiBase().toString())
            .setConnectTimeout(Math.toIntExact(config.connectTimeout().toMillis()))
            .setReadTimeout(Math.toIntExact(config.readTimeout().toMillis()))
            .build();
    this.webhook = new StripeWebhook(config.webhookSecret(), config.signatureTolerance(), clock);
    this.api = new StripeApi(client);
    this.refunds = new StripeRefunds(client);
    this.parser = new StripeCallbackParser(config.accountId(), this::paymentIdOfIntent);
    this.statements = new StripeStatementReader(client, config.statementZone());
  }

  /** Returns {@value #NAME}. */
  @Override
  public String name() {
    return NAME;
  }

  /**
   * Verifies {@code Stripe-Signature} over the raw bytes, then parses the event. A {@code charge.*}
   * event names only its PaymentIntent, so our payment id is then read from the intent at Stripe
   * (one retrieve call).
   *
   * @throws CallbackRejectedException MISSING_SIGNATURE, BAD_SIGNATURE, STALE_TIMESTAMP (see {@link
   *     StripeWebhook#verify}); MALFORMED for a signed body that is not a readable event, an amount
   *     not exactly convertible, or (for {@code charge.*} events) a failed intent lookup, which
   *     Stripe retries like any non-2xx answer
   */
  @Override
  public VerifiedCallback verifyCallback(CallbackRequest request) throws CallbackRejectedException {
    return parser.parse(webhook.verify(request));
  }

  /**
   * {@code data.object.metadata.payment_id} of the unverified body, when it is a PaymentIntent
   * event that has one; not verified (see {@link PaymentChannel#claimedPaymentId}).
   */
  @Override
  public Optional<String> claimedPaymentId(CallbackRequest request) {
    try {
      JsonNode id =
          JSON.readTree(request.rawBody())
              .path("data")
              .path("object")
              .path("metadata")
              .path(StripeCallbackParser.PAYMENT_ID_KEY);
      return id.isTextual() ? Optional.of(id.asText()) : Optional.empty();
    } catch (IOException notJson) {
      return Optional.empty();
    }
  }

  /**
   * Creates a PaymentIntent (see {@link StripeApi#create}); Stripe has no expiry for it, so {@code
   * expiresAt} is enforced by our {@link #close}.
   *
   * @return the pay URL: {@link StripeChannelConfig#payPageUrl()} with {@code payment_intent} and
   *     {@code payment_intent_client_secret}
   * @throws ChannelException not retryable for another merchant than our account, an amount Stripe
   *     cannot charge exactly (e.g. 5.124 KWD) or a 4xx; retryable for connection errors, 429, 5xx
   */
  @Override
  public ChannelRegistration register(ChannelPaymentRequest request) throws ChannelException {
    if (!config.accountId().equals(request.merchantId())) {
      throw new ChannelException(
          "merchant " + request.merchantId() + " is not account " + config.accountId(),
          false,
          null);
    }
    PaymentIntent intent = api.create(request);
    String payUrl =
        config.payPageUrl()
            + (config.payPageUrl().getQuery() == null ? "?" : "&")
            + "payment_intent="
            + encode(intent.getId())
            + "&payment_intent_client_secret="
            + encode(intent.getClientSecret());
    return new ChannelRegistration(request.paymentId(), payUrl);
  }

  /**
   * The intent carrying our payment id (search, then retrieve: {@link StripeApi#find}), mapped by
   * {@link StripeStatuses#ofIntentStatus}; NOT_FOUND with null amount when Stripe has none.
   *
   * @throws ChannelException as for {@link #register}
   */
  @Override
  public ChannelQueryResult query(String paymentId) throws ChannelException {
    Optional<PaymentIntent> intent = api.find(paymentId);
    return intent.isEmpty()
        ? new ChannelQueryResult(paymentId, ChannelPaymentStatus.NOT_FOUND, null, null)
        : StripeApi.result(paymentId, intent.get());
  }

  /**
   * Cancels the intent ({@link StripeApi#cancel}): CLOSED, or PAID with the intent id and amount
   * received when it succeeded first (Stripe cannot cancel it then); NOT_FOUND when Stripe has no
   * intent for the payment.
   *
   * @throws ChannelException as for {@link #register}; the close's outcome is then unknown
   */
  @Override
  public ChannelQueryResult close(String paymentId) throws ChannelException {
    Optional<PaymentIntent> intent = api.find(paymentId);
    if (intent.isEmpty()) {
      return new ChannelQueryResult(paymentId, ChannelPaymentStatus.NOT_FOUND, null, null);
    }
    return StripeApi.result(paymentId, api.cancel(paymentId, intent.get()));
  }

  /**
   * {@code POST /v1/refunds} with {@code payment_intent} = {@code channelTxnId}, the amount, and
   * {@code metadata[refund_no]}, {@code metadata[payment_id]}; idempotency key = our refund number,
   * so Stripe answers a resubmission with the first answer for 24 hours
   * (https://docs.stripe.com/api/idempotent_requests), and the metadata finds it again later.
   *
   * @return the Refund ({@code re_…}) mapped by {@link StripeStatuses#ofRefundStatus}; FAILED
   *     without a refund id, the error code as reason, when Stripe refuses it on its merits ({@link
   *     StripeRefunds#REFUSED}: already refunded, more than is left, disputed, no successful
   *     charge)
   * @throws ChannelException retryable for connection errors (a read timeout included), 429 and
   *     5xx: the refund may exist, ask {@link #queryRefund}; not retryable for another 4xx (e.g.
   *     {@code idempotency_error}: the number was used with other parameters) or an amount Stripe
   *     cannot take exactly
   */
  @Override
  public ChannelRefundResult refund(ChannelRefundRequest request) throws ChannelException {
    return refunds.create(request);
  }

  /**
   * Lists the PaymentIntent's refunds ({@code GET /v1/refunds?payment_intent=}, every page) and
   * picks the one whose {@code metadata.refund_no} is ours; NOT_FOUND when none carries it.
   *
   * @throws ChannelException as for {@link #register}; not retryable if two refunds carry the
   *     number
   */
  @Override
  public ChannelRefundResult queryRefund(String paymentId, String channelTxnId, String refundNo)
      throws ChannelException {
    return refunds.find(channelTxnId, refundNo);
  }

  /**
   * One page of balance transactions of the day (see {@link StripeStatementReader}); the page token
   * is the last balance transaction id ({@code txn_...}).
   *
   * @throws ChannelException as for {@link #register}, and not retryable for a line without its
   *     expanded charge or refund or with an amount not exactly convertible
   */
  @Override
  public StatementPage statement(LocalDate date, String pageToken) throws ChannelException {
    return statements.page(date, pageToken);
  }

  /**
   * Stripe stops retrying on any 2xx and retries anything else with backoff for up to three days
   * (https://docs.stripe.com/webhooks#retries): 200 {@code {"received":true}} for acknowledged
   * outcomes, 503 {@code {"received":false}} for the others (e.g. UNKNOWN_PAYMENT).
   */
  @Override
  public ChannelReply reply(CallbackOutcome outcome) {
    boolean ack = outcome.acknowledged();
    return new ChannelReply(
        ack ? 200 : 503,
        "application/json",
        "{\"received\":%s,\"outcome\":\"%s\"}".formatted(ack, outcome.name()));
  }

  private String paymentIdOfIntent(String intentId) throws CallbackRejectedException {
    if (intentId == null) {
      return null;
    }
    try {
      PaymentIntent intent = api.retrieve(intentId);
      return intent.getMetadata() == null
          ? null
          : intent.getMetadata().get(StripeCallbackParser.PAYMENT_ID_KEY);
    } catch (ChannelException e) {
      throw new CallbackRejectedException(
          Reason.MALFORMED, "cannot read our payment id from " + intentId + ": " + e, e);
    }
  }

  private static String encode(String value) {
    return URLEncoder.encode(value == null ? "" : value, StandardCharsets.UTF_8);
  }

  /**
   * The account's reporting time zone, as configured ({@link StripeChannelConfig#statementZone}).
   */
  @Override
  public ZoneId statementZone() {
    return config.statementZone();
  }
}

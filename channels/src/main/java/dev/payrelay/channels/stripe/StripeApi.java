package dev.payrelay.channels.stripe;

import com.stripe.StripeClient;
import com.stripe.exception.ApiConnectionException;
import com.stripe.exception.InvalidRequestException;
import com.stripe.exception.StripeException;
import com.stripe.model.PaymentIntent;
import com.stripe.net.RequestOptions;
import com.stripe.param.PaymentIntentCancelParams;
import com.stripe.param.PaymentIntentCreateParams;
import com.stripe.param.PaymentIntentSearchParams;
import dev.payrelay.domain.channel.ChannelException;
import dev.payrelay.domain.channel.ChannelPaymentRequest;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.ChannelQueryResult;
import java.util.List;
import java.util.Optional;

/**
 * PaymentIntent calls through the SDK's {@link StripeClient} (https://docs.stripe.com/api/
 * payment_intents): create, search by our payment id, retrieve, cancel. Thread-safe.
 */
public final class StripeApi {

  /** Stripe's error code for an action the intent's current status does not allow. */
  public static final String UNEXPECTED_STATE = "payment_intent_unexpected_state";

  private final StripeClient client;

  StripeApi(StripeClient client) {
    this.client = client;
  }

  /**
   * {@code POST /v1/payment_intents} with amount, currency, description and {@code
   * metadata[payment_id]}, idempotency key = our payment id: Stripe answers a repeat with the first
   * answer for 24 hours (https://docs.stripe.com/api/idempotent_requests).
   */
  PaymentIntent create(ChannelPaymentRequest request) throws ChannelException {
    long amount;
    try {
      amount = StripeAmounts.toStripeAmount(request.amount());
    } catch (IllegalArgumentException e) {
      throw new ChannelException(e.getMessage(), false, e);
    }
    PaymentIntentCreateParams params =
        PaymentIntentCreateParams.builder()
            .setAmount(amount)
            .setCurrency(StripeAmounts.stripeCurrency(request.amount()))
            .setDescription(request.description())
            .putMetadata(StripeCallbackParser.PAYMENT_ID_KEY, request.paymentId())
            .build();
    RequestOptions options =
        RequestOptions.builder().setIdempotencyKey(request.paymentId()).build();
    try {
      return client.v1().paymentIntents().create(params, options);
    } catch (StripeException e) {
      throw failure("create PaymentIntent for " + request.paymentId(), e);
    }
  }

  /**
   * The intent carrying our payment id, found with the Search API ({@code GET
   * /v1/payment_intents/search}) and then retrieved, because search results may lag writes by up to
   * a minute (https://docs.stripe.com/search#data-freshness).
   *
   * @return empty when Stripe has no intent with that {@code metadata.payment_id} (yet)
   */
  Optional<PaymentIntent> find(String paymentId) throws ChannelException {
    String query = "metadata['payment_id']:'" + paymentId.replace("'", "\\'") + "'";
    try {
      List<PaymentIntent> found =
          client
              .v1()
              .paymentIntents()
              .search(PaymentIntentSearchParams.builder().setQuery(query).build())
              .getData();
      if (found.size() > 1) {
        throw new ChannelException(
            found.size() + " PaymentIntents carry payment id " + paymentId, false, null);
      }
      return found.isEmpty() ? Optional.empty() : Optional.of(retrieve(found.get(0).getId()));
    } catch (StripeException e) {
      throw failure("search PaymentIntent of " + paymentId, e);
    }
  }

  /** {@code GET /v1/payment_intents/{id}}. */
  PaymentIntent retrieve(String intentId) throws ChannelException {
    try {
      return client.v1().paymentIntents().retrieve(intentId);
    } catch (StripeException e) {
      throw failure("retrieve " + intentId, e);
    }
  }

  /**
   * {@code POST /v1/payment_intents/{id}/cancel} with idempotency key {@code close:<paymentId>}.
   * Stripe refuses with {@value #UNEXPECTED_STATE} when the intent already succeeded or was
   * canceled: then the intent's current state is the answer.
   */
  PaymentIntent cancel(String paymentId, PaymentIntent intent) throws ChannelException {
    RequestOptions options =
        RequestOptions.builder().setIdempotencyKey("close:" + paymentId).build();
    try {
      return client
          .v1()
          .paymentIntents()
          .cancel(intent.getId(), PaymentIntentCancelParams.builder().build(), options);
    } catch (InvalidRequestException e) {
      if (UNEXPECTED_STATE.equals(e.getCode())) {
        return retrieve(intent.getId());
      }
      throw failure("cancel " + intent.getId(), e);
    } catch (StripeException e) {
      throw failure("cancel " + intent.getId(), e);
    }
  }

  /**
   * Our view of an intent: its mapped status, the intent id as transaction when PAID, and the
   * amount received (PAID) or requested (otherwise).
   *
   * @throws ChannelException not retryable if the amount is not exactly convertible
   */
  static ChannelQueryResult result(String paymentId, PaymentIntent intent) throws ChannelException {
    ChannelPaymentStatus status = StripeStatuses.ofIntentStatus(intent.getStatus());
    boolean paid = status == ChannelPaymentStatus.PAID;
    try {
      return new ChannelQueryResult(
          paymentId,
          status,
          paid ? intent.getId() : null,
          StripeAmounts.toMoney(
              paid ? intent.getAmountReceived() : intent.getAmount(), intent.getCurrency()));
    } catch (IllegalArgumentException | ArithmeticException e) {
      throw new ChannelException(intent.getId() + ": " + e.getMessage(), false, e);
    }
  }

  /**
   * A ChannelException for an SDK failure: retryable for connection errors, 429 and 5xx (Stripe's
   * advice, https://docs.stripe.com/error-handling), not for other 4xx.
   */
  static ChannelException failure(String what, StripeException e) {
    Integer status = e.getStatusCode();
    boolean retryable =
        e instanceof ApiConnectionException || status == null || status == 429 || status >= 500;
    return new ChannelException(what + " failed: " + e.getMessage(), retryable, e);
  }
}

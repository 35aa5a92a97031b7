package dev.payrelay.channels.stripe;

import com.stripe.StripeClient;
import com.stripe.exception.InvalidRequestException;
import com.stripe.exception.StripeException;
import com.stripe.model.Refund;
import com.stripe.model.StripeCollection;
import com.stripe.net.RequestOptions;
import com.stripe.param.RefundCreateParams;
import com.stripe.param.RefundListParams;
import dev.payrelay.domain.channel.ChannelException;
import dev.payrelay.domain.channel.ChannelRefundRequest;
import dev.payrelay.domain.channel.ChannelRefundResult;
import dev.payrelay.domain.channel.ChannelRefundStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Refund calls through the SDK's {@link StripeClient} (https://docs.stripe.com/api/refunds): create
 * one under our refund number, and find it again by that number among the PaymentIntent's refunds.
 * Thread-safe.
 */
final class StripeRefunds {

  /**
   * Stripe error codes that refuse a refund on its merits (https://docs.stripe.com/error-codes):
   * nothing is left to refund, more than is left, the charge is disputed, or the intent has no
   * successful charge. They are a FAILED answer, not an unknown one.
   */
  static final Set<String> REFUSED =
      Set.of(
          "charge_already_refunded",
          "amount_too_large",
          "charge_disputed",
          StripeApi.UNEXPECTED_STATE);

  /** Refunds read per page when listing an intent's refunds (Stripe's maximum). */
  static final long PAGE_SIZE = 100;

  private final StripeClient client;

  StripeRefunds(StripeClient client) {
    this.client = client;
  }

  /** See {@link StripeChannel#refund}. */
  ChannelRefundResult create(ChannelRefundRequest request) throws ChannelException {
    long amount;
    try {
      amount = StripeAmounts.toStripeAmount(request.amount());
    } catch (IllegalArgumentException e) {
      throw new ChannelException(e.getMessage(), false, e);
    }
    RefundCreateParams params =
        RefundCreateParams.builder()
            .setPaymentIntent(request.channelTxnId())
            .setAmount(amount)
            .putMetadata(StripeCallbackParser.REFUND_NO_KEY, request.refundNo())
            .putMetadata(StripeCallbackParser.PAYMENT_ID_KEY, request.paymentId())
            .build();
    RequestOptions options = RequestOptions.builder().setIdempotencyKey(request.refundNo()).build();
    String what = "refund " + request.refundNo() + " of " + request.channelTxnId();
    try {
      return result(request.refundNo(), client.v1().refunds().create(params, options));
    } catch (InvalidRequestException e) {
      if (e.getCode() != null && REFUSED.contains(e.getCode())) {
        return new ChannelRefundResult(
            request.refundNo(), ChannelRefundStatus.FAILED, null, null, e.getCode());
      }
      throw StripeApi.failure(what, e);
    } catch (StripeException e) {
      throw StripeApi.failure(what, e);
    }
  }

  /** See {@link StripeChannel#queryRefund}. */
  ChannelRefundResult find(String channelTxnId, String refundNo) throws ChannelException {
    List<Refund> matching = new ArrayList<>();
    for (Refund refund : list(channelTxnId)) {
      if (refund.getMetadata() != null
          && refundNo.equals(refund.getMetadata().get(StripeCallbackParser.REFUND_NO_KEY))) {
        matching.add(refund);
      }
    }
    if (matching.size() > 1) {
      throw new ChannelException(
          matching.size() + " refunds of " + channelTxnId + " carry number " + refundNo,
          false,
          null);
    }
    return matching.isEmpty()
        ? ChannelRefundResult.notFound(refundNo)
        : result(refundNo, matching.get(0));
  }

  /** Every refund of the intent, page by page ({@code GET /v1/refunds?payment_intent=}). */
  private List<Refund> list(String channelTxnId) throws ChannelException {
    List<Refund> all = new ArrayList<>();
    String after = null;
    while (true) {
      RefundListParams params =
          RefundListParams.builder()
              .setPaymentIntent(channelTxnId)
              .setLimit(PAGE_SIZE)
              .setStartingAfter(after)
              .build();
      StripeCollection<Refund> page;
      try {
        page = client.v1().refunds().list(params);
      } catch (StripeException e) {
        throw StripeApi.failure("list refunds of " + channelTxnId, e);
      }
      all.addAll(page.getData());
      if (!Boolean.TRUE.equals(page.getHasMore()) || page.getData().isEmpty()) {
        return all;
      }
      after = page.getData().get(page.getData().size() - 1).getId();
    }
  }

  /**
   * Our view of a Refund.
   *
   * @throws ChannelException not retryable if its amount is not exactly convertible
   */
  static ChannelRefundResult result(String refundNo, Refund refund) throws ChannelException {
    ChannelRefundStatus status = StripeStatuses.ofRefundStatus(refund.getStatus());
    try {
      return new ChannelRefundResult(
          refundNo,
          status,
          refund.getId(),
          StripeAmounts.toMoney(refund.getAmount(), refund.getCurrency()),
          status == ChannelRefundStatus.FAILED ? failureReason(refund) : null);
    } catch (IllegalArgumentException | ArithmeticException e) {
      throw new ChannelException(refund.getId() + ": " + e.getMessage(), false, e);
    }
  }

  /** Stripe's {@code failure_reason}, or the status ({@code canceled}) when it gives none. */
  static String failureReason(Refund refund) {
    return refund.getFailureReason() != null ? refund.getFailureReason() : refund.getStatus();
  }
}

package dev.payrelay.channels.wechatpay;

import com.wechat.pay.java.core.exception.HttpException;
import com.wechat.pay.java.core.exception.ServiceException;
import com.wechat.pay.java.core.exception.WechatPayException;
import com.wechat.pay.java.core.http.HttpClient;
import com.wechat.pay.java.service.refund.RefundService;
import com.wechat.pay.java.service.refund.model.AmountReq;
import com.wechat.pay.java.service.refund.model.CreateRequest;
import com.wechat.pay.java.service.refund.model.QueryByOutRefundNoRequest;
import com.wechat.pay.java.service.refund.model.Refund;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.ChannelException;
import dev.payrelay.domain.channel.ChannelRefundRequest;
import dev.payrelay.domain.channel.ChannelRefundResult;
import dev.payrelay.domain.channel.ChannelRefundStatus;
import java.util.Set;

/**
 * The domestic refund calls through the SDK's {@link RefundService}: {@code POST
 * /v3/refund/domestic/refunds} ("申请退款") with {@code out_refund_no} = our refund number, and {@code
 * GET /v3/refund/domestic/refunds/{out_refund_no}} ("查询单笔退款").
 *
 * <p>WeChat Pay's rules ("申请退款"): the same {@code out_refund_no} again answers the same refund,
 * never a second one; the answer's {@code status} is SUCCESS, PROCESSING (usual: the result follows
 * in the 退款结果通知 or the query), CLOSED or ABNORMAL; a refund the API refuses on its merits is a 4xx
 * whose {@code code} names why.
 */
final class WechatPayRefunds {

  /**
   * 4xx codes refusing a refund on its merits ("申请退款" error codes): nothing moved under this
   * number, so the refund FAILED. {@code NOT_ENOUGH}: the merchant's balance is short; {@code
   * USER_ACCOUNT_ABNORMAL}: the buyer's account cannot take it; {@code INVALID_REQUEST}: the order
   * cannot be refunded so (e.g. more than is left, or fully refunded already).
   */
  private static final Set<String> REFUSED =
      Set.of("NOT_ENOUGH", "USER_ACCOUNT_ABNORMAL", "INVALID_REQUEST");

  private final RefundService service;
  private final String notifyUrl;

  /**
   * @param http the SDK's signing, verifying client
   * @param notifyUrl where WeChat Pay posts the 退款结果通知
   */
  WechatPayRefunds(HttpClient http, String notifyUrl) {
    this.service = new RefundService.Builder().httpClient(http).build();
    this.notifyUrl = notifyUrl;
  }

  ChannelRefundResult refund(ChannelRefundRequest r) throws ChannelException {
    if (!r.amount().currency().equals(r.paymentAmount().currency())) {
      throw new ChannelException(
          "refund in "
              + r.amount().currencyCode()
              + " of a payment in "
              + r.paymentAmount().currencyCode(),
          false,
          null);
    }
    CreateRequest create = new CreateRequest();
    create.setTransactionId(r.channelTxnId());
    create.setOutTradeNo(r.paymentId());
    create.setOutRefundNo(r.refundNo());
    create.setReason(r.reason());
    create.setNotifyUrl(notifyUrl);
    AmountReq amount = new AmountReq();
    amount.setRefund(r.amount().minorUnits());
    amount.setTotal(r.paymentAmount().minorUnits());
    amount.setCurrency(r.amount().currencyCode());
    create.setAmount(amount);
    try {
      return result(r.refundNo(), service.create(create));
    } catch (ServiceException e) {
      if (!retryable(e) && REFUSED.contains(e.getErrorCode())) {
        return new ChannelRefundResult(
            r.refundNo(),
            ChannelRefundStatus.FAILED,
            null,
            null,
            e.getErrorCode() + ": " + e.getErrorMessage());
      }
      throw failure("refund " + r.refundNo(), e);
    } catch (WechatPayException e) {
      throw failure("refund " + r.refundNo(), e);
    }
  }

  ChannelRefundResult query(String refundNo) throws ChannelException {
    QueryByOutRefundNoRequest q = new QueryByOutRefundNoRequest();
    q.setOutRefundNo(refundNo);
    try {
      return result(refundNo, service.queryByOutRefundNo(q));
    } catch (ServiceException e) {
      if ("RESOURCE_NOT_EXISTS".equals(e.getErrorCode())) {
        return ChannelRefundResult.notFound(refundNo);
      }
      throw failure("query refund " + refundNo, e);
    } catch (WechatPayException e) {
      throw failure("query refund " + refundNo, e);
    }
  }

  /**
   * A refund as WeChat Pay answers it: {@code status} by {@link WechatPayTradeState#mapRefund},
   * {@code refund_id}, {@code amount.refund} in {@code amount.currency} (CNY when absent).
   *
   * @throws ChannelException not retryable when the answer has no status or a malformed amount
   */
  private static ChannelRefundResult result(String refundNo, Refund refund)
      throws ChannelException {
    ChannelRefundStatus status =
        WechatPayTradeState.mapRefund(
            refund.getStatus() == null ? null : refund.getStatus().name());
    if (status == null) {
      throw new ChannelException(
          "refund " + refundNo + " answered without a known status: " + refund.getStatus(),
          false,
          null);
    }
    Money amount;
    try {
      amount =
          refund.getAmount() == null || refund.getAmount().getRefund() == null
              ? null
              : WechatPayAmounts.toMoney(
                  refund.getAmount().getRefund().toString(), refund.getAmount().getCurrency());
    } catch (IllegalArgumentException e) {
      throw new ChannelException("refund " + refundNo + ": " + e.getMessage(), false, e);
    }
    return new ChannelRefundResult(
        refundNo,
        status,
        refund.getRefundId(),
        amount,
        status == ChannelRefundStatus.FAILED ? "refund " + refund.getStatus() : null);
  }

  /** Retryable for I/O failures, 5xx, 429, {@code FREQUENCY_LIMITED} and {@code SYSTEM_ERROR}. */
  static ChannelException failure(String what, WechatPayException e) {
    if (e instanceof ServiceException s) {
      return new ChannelException(
          what
              + ": HTTP "
              + s.getHttpStatusCode()
              + " "
              + s.getErrorCode()
              + " "
              + s.getErrorMessage(),
          retryable(s),
          e);
    }
    return new ChannelException(what + ": " + e.getMessage(), e instanceof HttpException, e);
  }

  static boolean retryable(ServiceException e) {
    return e.getHttpStatusCode() >= 500
        || e.getHttpStatusCode() == 429
        || "FREQUENCY_LIMITED".equals(e.getErrorCode())
        || "SYSTEM_ERROR".equals(e.getErrorCode());
  }
}

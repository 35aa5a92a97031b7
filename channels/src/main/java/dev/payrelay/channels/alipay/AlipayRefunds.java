package dev.payrelay.channels.alipay;

import com.alipay.api.domain.AlipayTradeFastpayRefundQueryModel;
import com.alipay.api.domain.AlipayTradeRefundModel;
import com.alipay.api.request.AlipayTradeFastpayRefundQueryRequest;
import com.alipay.api.request.AlipayTradeRefundRequest;
import com.alipay.api.response.AlipayTradeFastpayRefundQueryResponse;
import com.alipay.api.response.AlipayTradeRefundResponse;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.CallbackRejectedException;
import dev.payrelay.domain.channel.ChannelException;
import dev.payrelay.domain.channel.ChannelRefundRequest;
import dev.payrelay.domain.channel.ChannelRefundResult;
import dev.payrelay.domain.channel.ChannelRefundStatus;
import java.util.Set;

/**
 * The refund calls: {@code alipay.trade.refund} keyed by {@code out_request_no} = our refund
 * number, and {@code alipay.trade.fastpay.refund.query} by that number.
 *
 * <p>Alipay's rules (open platform, "alipay.trade.refund" and "alipay.trade.fastpay.refund.query"):
 * a refund answer with code 10000 and {@code fund_change=Y} means the money moved; {@code
 * fund_change=N} means this call moved none, which is also the answer to a repeat of a refund that
 * already succeeded, so the refund is then asked about with the query. The query's code 10000
 * "仅代表本次查询操作成功" (only the query succeeded): an answer with {@code refund_amount} and {@code
 * refund_status} REFUND_SUCCESS (or no status, the older answer) is a refund; an answer without
 * {@code refund_amount} means Alipay holds none ("如果没有查询到则代表未退款成功，可以调用退款接口进行重试。重试时请务必保证退款请求号一致").
 */
final class AlipayRefunds {

  /**
   * Refusals of a refund on its merits, per the refund API's public error codes: nothing moved and
   * nothing will under this number as asked, so the refund FAILED.
   */
  private static final Set<String> REFUSED =
      Set.of(
          "ACQ.REFUND_AMT_NOT_EQUAL_TOTAL",
          "ACQ.TRADE_NOT_ALLOW_REFUND",
          "ACQ.TRADE_HAS_FINISHED",
          "ACQ.TRADE_STATUS_ERROR",
          "ACQ.TRADE_NOT_EXIST",
          "ACQ.SELLER_BALANCE_NOT_ENOUGH",
          "ACQ.REASON_TRADE_BEEN_FREEZEN",
          "ACQ.REASON_TRADE_REFUND_FEE_ERR",
          "ACQ.REFUND_FEE_ERROR");

  private static final String SUCCESS = "10000";

  private final AlipayGateway gateway;

  AlipayRefunds(AlipayGateway gateway) {
    this.gateway = gateway;
  }

  /**
   * Alipay's identity of one refund: the trade and our {@code out_request_no}, joined by {@code
   * ':'}. Alipay gives a partial refund no id of its own, so answers, notifications ({@code
   * out_biz_no}) and bill lines (退款批次号/请求号) all name it by this pair.
   */
  static String refundId(String tradeNo, String outRequestNo) {
    return tradeNo + ":" + outRequestNo;
  }

  ChannelRefundResult refund(ChannelRefundRequest r) throws ChannelException {
    if (!"CNY".equals(r.amount().currencyCode())) {
      throw new ChannelException(
          "alipay.trade.refund takes CNY only, not " + r.amount().currencyCode(), false, null);
    }
    AlipayTradeRefundModel model = new AlipayTradeRefundModel();
    model.setOutTradeNo(r.paymentId());
    model.setTradeNo(r.channelTxnId());
    model.setOutRequestNo(r.refundNo());
    model.setRefundAmount(r.amount().toDecimalString());
    model.setRefundReason(r.reason());
    AlipayTradeRefundRequest request = new AlipayTradeRefundRequest();
    request.setBizModel(model);
    AlipayTradeRefundResponse answer = gateway.execute(request);
    if (SUCCESS.equals(answer.getCode())) {
      if ("Y".equals(answer.getFundChange())) {
        return new ChannelRefundResult(
            r.refundNo(),
            ChannelRefundStatus.SUCCEEDED,
            refundId(
                answer.getTradeNo() == null ? r.channelTxnId() : answer.getTradeNo(), r.refundNo()),
            r.amount(),
            null);
      }
      // No money moved by this call: a repeat of a finished refund, or one still being made.
      ChannelRefundResult asked = queryRefund(r.paymentId(), r.channelTxnId(), r.refundNo());
      return asked.status() == ChannelRefundStatus.NOT_FOUND
          ? new ChannelRefundResult(r.refundNo(), ChannelRefundStatus.PENDING, null, null, null)
          : asked;
    }
    if (REFUSED.contains(answer.getSubCode())) {
      return new ChannelRefundResult(
          r.refundNo(),
          ChannelRefundStatus.FAILED,
          null,
          null,
          answer.getSubCode() + ": " + answer.getSubMsg());
    }
    throw AlipayGateway.failure(request, answer);
  }

  ChannelRefundResult queryRefund(String paymentId, String channelTxnId, String refundNo)
      throws ChannelException {
    AlipayTradeFastpayRefundQueryModel model = new AlipayTradeFastpayRefundQueryModel();
    model.setOutTradeNo(paymentId);
    model.setTradeNo(channelTxnId);
    model.setOutRequestNo(refundNo);
    AlipayTradeFastpayRefundQueryRequest request = new AlipayTradeFastpayRefundQueryRequest();
    request.setBizModel(model);
    AlipayTradeFastpayRefundQueryResponse answer = gateway.execute(request);
    if ("ACQ.TRADE_NOT_EXIST".equals(answer.getSubCode())) {
      return ChannelRefundResult.notFound(refundNo);
    }
    if (!answer.isSuccess()) {
      throw AlipayGateway.failure(request, answer);
    }
    String refunded = answer.getRefundAmount();
    if (refunded == null || refunded.isBlank()) {
      return ChannelRefundResult.notFound(refundNo);
    }
    String status = answer.getRefundStatus();
    boolean done = status == null || status.isBlank() || "REFUND_SUCCESS".equals(status);
    return new ChannelRefundResult(
        refundNo,
        done ? ChannelRefundStatus.SUCCEEDED : ChannelRefundStatus.PENDING,
        refundId(answer.getTradeNo() == null ? channelTxnId : answer.getTradeNo(), refundNo),
        amount(request.getApiMethodName(), refunded),
        null);
  }

  private static Money amount(String method, String yuan) throws ChannelException {
    try {
      return AlipayNotifyParser.amount(yuan, null);
    } catch (CallbackRejectedException e) {
      throw new ChannelException(method + " answered " + e.getMessage(), false, e);
    }
  }
}

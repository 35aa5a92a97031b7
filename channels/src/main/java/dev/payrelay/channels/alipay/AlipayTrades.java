package dev.payrelay.channels.alipay;

import com.alipay.api.domain.AlipayTradeCloseModel;
import com.alipay.api.domain.AlipayTradePrecreateModel;
import com.alipay.api.domain.AlipayTradeQueryModel;
import com.alipay.api.request.AlipayTradeCloseRequest;
import com.alipay.api.request.AlipayTradePrecreateRequest;
import com.alipay.api.request.AlipayTradeQueryRequest;
import com.alipay.api.response.AlipayTradeCloseResponse;
import com.alipay.api.response.AlipayTradePrecreateResponse;
import com.alipay.api.response.AlipayTradeQueryResponse;
import dev.payrelay.domain.Money;
import dev.payrelay.domain.channel.CallbackRejectedException;
import dev.payrelay.domain.channel.ChannelException;
import dev.payrelay.domain.channel.ChannelPaymentRequest;
import dev.payrelay.domain.channel.ChannelPaymentStatus;
import dev.payrelay.domain.channel.ChannelQueryResult;
import dev.payrelay.domain.channel.ChannelRegistration;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/**
 * The trade calls: {@code alipay.trade.precreate} (register), {@code alipay.trade.query}, {@code
 * alipay.trade.close}, all keyed by {@code out_trade_no} = our payment id.
 */
public final class AlipayTrades {

  /** Alipay's wall clock: {@code time_expire} and the {@code gmt_*} fields are Beijing time. */
  public static final ZoneId BEIJING = ZoneId.of("Asia/Shanghai");

  public static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

  private static final String TRADE_NOT_EXIST = "ACQ.TRADE_NOT_EXIST";

  private final AlipayGateway gateway;
  private final AlipayChannelConfig config;

  AlipayTrades(AlipayGateway gateway, AlipayChannelConfig config) {
    this.gateway = gateway;
    this.config = config;
  }

  ChannelRegistration register(ChannelPaymentRequest payment) throws ChannelException {
    if (!config.appId().equals(payment.merchantId())) {
      throw new ChannelException(
          "payment names merchant " + payment.merchantId() + ", this app is " + config.appId(),
          false,
          null);
    }
    if (!"CNY".equals(payment.amount().currencyCode())) {
      throw new ChannelException(
          "alipay.trade.precreate takes CNY only, not " + payment.amount().currencyCode(),
          false,
          null);
    }
    AlipayTradePrecreateModel model = new AlipayTradePrecreateModel();
    model.setOutTradeNo(payment.paymentId());
    model.setTotalAmount(payment.amount().toDecimalString());
    model.setSubject(payment.description());
    model.setTimeExpire(TIME.format(payment.expiresAt().atZone(BEIJING)));
    AlipayTradePrecreateRequest request = new AlipayTradePrecreateRequest();
    request.setBizModel(model);
    request.setNotifyUrl(config.notifyUrl().toString());
    AlipayTradePrecreateResponse answer = gateway.execute(request);
    if (!answer.isSuccess() || answer.getQrCode() == null) {
      throw AlipayGateway.failure(request, answer);
    }
    return new ChannelRegistration(payment.paymentId(), answer.getQrCode());
  }

  ChannelQueryResult query(String paymentId) throws ChannelException {
    AlipayTradeQueryModel model = new AlipayTradeQueryModel();
    model.setOutTradeNo(paymentId);
    AlipayTradeQueryRequest request = new AlipayTradeQueryRequest();
    request.setBizModel(model);
    AlipayTradeQueryResponse answer = gateway.execute(request);
    if (TRADE_NOT_EXIST.equals(answer.getSubCode())) {
      return new ChannelQueryResult(paymentId, ChannelPaymentStatus.NOT_FOUND, null, null);
    }
    if (!answer.isSuccess()) {
      throw AlipayGateway.failure(request, answer);
    }
    ChannelPaymentStatus status = AlipayTradeStatus.map(answer.getTradeStatus(), null, null);
    return new ChannelQueryResult(
        paymentId,
        status,
        status == ChannelPaymentStatus.PAID ? answer.getTradeNo() : null,
        amount(request.getApiMethodName(), answer.getTotalAmount(), answer.getTransCurrency()));
  }

  ChannelQueryResult close(String paymentId) throws ChannelException {
    AlipayTradeCloseModel model = new AlipayTradeCloseModel();
    model.setOutTradeNo(paymentId);
    AlipayTradeCloseRequest request = new AlipayTradeCloseRequest();
    request.setBizModel(model);
    AlipayTradeCloseResponse answer = gateway.execute(request);
    if (TRADE_NOT_EXIST.equals(answer.getSubCode())) {
      return new ChannelQueryResult(paymentId, ChannelPaymentStatus.NOT_FOUND, null, null);
    }
    // ACQ.TRADE_STATUS_ERROR: already paid, finished or closed. Either way the query tells which.
    if (!answer.isSuccess() && !"ACQ.TRADE_STATUS_ERROR".equals(answer.getSubCode())) {
      throw AlipayGateway.failure(request, answer);
    }
    return query(paymentId);
  }

  private static Money amount(String method, String decimal, String transCurrency)
      throws ChannelException {
    try {
      return AlipayNotifyParser.amount(decimal, transCurrency);
    } catch (CallbackRejectedException e) {
      throw new ChannelException(method + " answered " + e.getMessage(), false, e);
    }
  }
}

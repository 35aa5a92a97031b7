package dev.payrelay.channels.alipay;

import com.alipay.api.AlipayApiException;
import com.alipay.api.AlipayClient;
import com.alipay.api.AlipayRequest;
import com.alipay.api.AlipayResponse;
import com.alipay.api.DefaultAlipayClient;
import dev.payrelay.domain.channel.ChannelException;
import java.io.IOException;
import java.util.Set;

/**
 * The SDK's {@link DefaultAlipayClient} (JSON, UTF-8, RSA2) with Alipay's error answers turned into
 * {@link ChannelException}s. The SDK signs each request with the app's private key and verifies
 * each answer's {@code sign} over the raw {@code <method>_response} JSON with Alipay's public key.
 */
final class AlipayGateway {

  /** The charset of our requests and of Alipay's answers to them. */
  static final String CHARSET = "UTF-8";

  /**
   * Business failures worth retrying, per the open API's public error codes: {@code code} 20000
   * (service unavailable) and these {@code sub_code}s (system error). Every other failure, e.g.
   * 40004 with {@code ACQ.TRADE_HAS_SUCCESS} or a 4000x authorisation error, is final.
   */
  private static final Set<String> RETRYABLE_SUB_CODES =
      Set.of("ACQ.SYSTEM_ERROR", "isp.unknow-error");

  private final AlipayClient client;

  AlipayGateway(AlipayChannelConfig config) {
    DefaultAlipayClient sdk =
        new DefaultAlipayClient(
            config.gatewayUrl().toString(),
            config.appId(),
            config.appPrivateKey(),
            "json",
            CHARSET,
            config.alipayPublicKey(),
            "RSA2");
    sdk.setConnectTimeout((int) config.connectTimeout().toMillis());
    sdk.setReadTimeout((int) config.readTimeout().toMillis());
    this.client = sdk;
  }

  /**
   * Executes one API call.
   *
   * @return the answer, which may still be a business failure ({@link AlipayResponse#isSuccess()}
   *     false with a {@code sub_code}): callers decide which failures are answers
   * @throws ChannelException retryable on an I/O failure (connect, timeout, non-2xx); not retryable
   *     when the answer's signature does not verify or the answer does not parse
   */
  <T extends AlipayResponse> T execute(AlipayRequest<T> request) throws ChannelException {
    try {
      return client.execute(request);
    } catch (AlipayApiException e) {
      throw new ChannelException(
          request.getApiMethodName() + " failed: " + e.getMessage(), causedByIo(e), e);
    }
  }

  /** A business failure as an exception: retryable for service-unavailable and system errors. */
  static ChannelException failure(AlipayRequest<?> request, AlipayResponse answer) {
    boolean retryable =
        "20000".equals(answer.getCode()) || RETRYABLE_SUB_CODES.contains(answer.getSubCode());
    return new ChannelException(
        "%s refused: code=%s msg=%s sub_code=%s sub_msg=%s"
            .formatted(
                request.getApiMethodName(),
                answer.getCode(),
                answer.getMsg(),
                answer.getSubCode(),
                answer.getSubMsg()),
        retryable,
        null);
  }

  private static boolean causedByIo(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof IOException) {
        return true;
      }
    }
    return false;
  }
}

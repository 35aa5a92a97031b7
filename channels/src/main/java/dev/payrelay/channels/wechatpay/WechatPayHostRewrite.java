package dev.payrelay.channels.wechatpay;

import java.io.IOException;
import java.net.URI;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.Request;
import okhttp3.Response;

/**
 * Sends the SDK's requests for {@code https://api.mch.weixin.qq.com} to another base URL.
 *
 * <p>wechatpay-java 0.2.x builds every API URL from the literal production host and lets a service
 * choose only between the {@code HostName} constants (api.mch.weixin.qq.com and its backup
 * api2.wechatpay.cn), so there is no setting for a simulator's address. This OkHttp application
 * interceptor, installed through {@code DefaultHttpClientBuilder.okHttpClient}, swaps scheme, host
 * and port after the SDK has signed the request; the signature covers method, path, query,
 * timestamp, nonce and body but not the host, so it stays valid. Requests to any other host (e.g. a
 * bill's {@code download_url}) pass unchanged.
 */
final class WechatPayHostRewrite implements Interceptor {

  private final HttpUrl target;

  /**
   * @param base the base URL to send production-host requests to; its path must be empty
   */
  WechatPayHostRewrite(URI base) {
    this.target = HttpUrl.get(base);
  }

  @Override
  public Response intercept(Chain chain) throws IOException {
    Request request = chain.request();
    HttpUrl url = request.url();
    if (!url.host().equals(WechatPayChannelConfig.PRODUCTION_API.getHost())) {
      return chain.proceed(request);
    }
    HttpUrl moved =
        url.newBuilder().scheme(target.scheme()).host(target.host()).port(target.port()).build();
    return chain.proceed(request.newBuilder().url(moved).build());
  }
}

/**
 * The WeChat Pay API v3 channel: {@link dev.payrelay.channels.wechatpay.WechatPayChannel} (the
 * adapter, through WeChat Pay's official SDK {@code com.github.wechatpay-apiv3:wechatpay-java}) and
 * {@link dev.payrelay.channels.wechatpay.WechatPaySimulator} (the API and signed, encrypted
 * notifications on a local port).
 *
 * <p>How WeChat Pay's model meets the channel SPI:
 *
 * <ul>
 *   <li>A payment is one Native order whose {@code out_trade_no} is our payment id; WeChat Pay's
 *       {@code transaction_id} (28 digits) is our channel transaction id once paid. The buyer pays
 *       by scanning the {@code code_url}, which is the registration's pay URL.
 *   <li>Notifications name the payment only inside the AES-GCM encrypted {@code resource}, so
 *       {@code claimedPaymentId} is always empty: one merchant account per adapter.
 *   <li>The SDK checks the notification's signature, key id ({@code Wechatpay-Serial}) and
 *       decryption but not its timestamp; the adapter adds a five-minute window. A resource that
 *       does not decrypt with our APIv3 key is a BAD_SIGNATURE (the GCM tag is an authentication
 *       check), not MALFORMED.
 *   <li>The SDK has no base-URL setting (its URLs name api.mch.weixin.qq.com); {@code
 *       WechatPayHostRewrite}, an OkHttp interceptor, points it at the simulator after signing.
 *   <li>Statements are the day's ALL trade bill ({@code /v3/bill/tradebill}), downloaded and
 *       SHA1-checked by the SDK's {@code BillDownloadServiceExtension}, one page per day.
 * </ul>
 */
package dev.payrelay.channels.wechatpay;

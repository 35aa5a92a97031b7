package dev.payrelay.domain.channel;

import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Optional;

/**
 * The SPI every payment channel adapter implements.
 *
 * <p>Implementations are thread-safe and hold no database or broker state: they verify, parse and
 * talk to the channel, nothing else. DESIGN invariant 2: the signature is checked over the raw
 * request bytes before anything is parsed.
 */
public interface PaymentChannel {

  /** The channel's stable name as used in URLs and the {@code channel} columns, e.g. sandbox. */
  String name();

  /**
   * Verifies a callback over its exact raw bytes, then parses it.
   *
   * @return the verified content, not yet compared with our records
   * @throws CallbackRejectedException if the signature, timestamp or format is wrong; nothing in
   *     such a request may be believed
   */
  VerifiedCallback verifyCallback(CallbackRequest request) throws CallbackRejectedException;

  /**
   * The payment a callback names, read from its unverified bytes for one purpose only: to choose
   * the merchant account (and so the secret) whose adapter then {@link #verifyCallback verifies}
   * it. Nothing else in the request may be believed before that, and this id neither.
   *
   * @return empty when the bytes name no payment; the channel's default account then verifies it.
   *     The default suits a channel with one merchant account.
   */
  default Optional<String> claimedPaymentId(CallbackRequest request) {
    return Optional.empty();
  }

  /**
   * The media type this channel's callbacks carry in {@code Content-Type} (type/subtype, lower
   * case, without parameters such as charset); a callback with another is refused with 415 before
   * verification.
   *
   * @return by default {@code application/json} (RFC 8259), what the sandbox and Stripe send
   */
  default String callbackMediaType() {
    return "application/json";
  }

  /**
   * Registers a payment attempt with the channel so the buyer can pay it. Idempotent per {@code
   * paymentId}: registering the same payment again returns the same registration.
   *
   * @throws ChannelException if the channel cannot be reached or refuses; see {@link
   *     ChannelException#retryable()}
   */
  ChannelRegistration register(ChannelPaymentRequest request) throws ChannelException;

  /**
   * Asks the channel for a payment's state. The answer of a failed call is unknown, never "not
   * paid".
   *
   * @throws ChannelException if the channel cannot be reached or answers with an error
   */
  ChannelQueryResult query(String paymentId) throws ChannelException;

  /**
   * Closes a payment at the channel so it can no longer be paid. Idempotent per payment: the call
   * carries an idempotency key derived from the payment id, never from the attempt.
   *
   * @return the payment's state at the channel afterwards: CLOSED, or PAID if it was paid before
   *     the close took effect (then it must be confirmed, not closed)
   * @throws ChannelException if the channel cannot be reached or refuses; the outcome is unknown
   */
  ChannelQueryResult close(String paymentId) throws ChannelException;

  /**
   * Submits a refund of a paid payment, once per refund number: the call carries {@code
   * request.refundNo()} as the channel's idempotency key, so submitting the same number again
   * returns the same refund, never a second one.
   *
   * @return the channel's answer: usually PENDING or SUCCEEDED, FAILED when it refused the refund
   *     on its merits (e.g. more than is refundable)
   * @throws ChannelException if the answer is unknown (a timeout, a 5xx, an unreadable answer;
   *     {@link ChannelException#retryable()} true): whether the channel has the refund must then be
   *     asked with {@link #queryRefund}, never submitted under a new number; or, not retryable,
   *     when the request itself is refused before the channel holds a refund (a 4xx on its shape),
   *     and by default, for an adapter that cannot refund
   */
  default ChannelRefundResult refund(ChannelRefundRequest request) throws ChannelException {
    throw new ChannelException("the " + name() + " adapter cannot refund", false, null);
  }

  /**
   * Asks the channel about a refund by our refund number (Stripe: the payment's refunds by {@code
   * metadata.refund_no}; Alipay {@code alipay.trade.fastpay.refund.query}; WeChat Pay {@code GET
   * /v3/refund/domestic/refunds/{out_refund_no}}).
   *
   * @param paymentId our payment id
   * @param channelTxnId the channel's transaction that paid it
   * @param refundNo our refund number
   * @return the refund's state, {@code NOT_FOUND} only when the channel says it holds none
   * @throws ChannelException if the channel cannot be reached or answers with an error: the
   *     refund's state stays unknown; by default, for an adapter that cannot refund, not retryable
   */
  default ChannelRefundResult queryRefund(String paymentId, String channelTxnId, String refundNo)
      throws ChannelException {
    throw new ChannelException("the " + name() + " adapter cannot refund", false, null);
  }

  /**
   * One page of the channel's statement (bill) for a day: every transaction it settled that day.
   *
   * @param date the statement day, in the channel's settlement time zone
   * @param pageToken null for the first page, else the previous page's {@link
   *     StatementPage#nextPageToken()}
   * @throws ChannelException if the channel cannot be reached or refuses
   */
  StatementPage statement(LocalDate date, String pageToken) throws ChannelException;

  /**
   * The time zone in which this channel's statement days run: {@link #statement}'s {@code date}
   * covers {@code [date 00:00, date + 1 00:00)} there, and reconciliation compares it with our
   * payments paid in that window.
   *
   * @return by default UTC
   */
  default ZoneId statementZone() {
    return ZoneOffset.UTC;
  }

  /**
   * Whether {@link #statement} lists the transactions of every merchant account at this channel,
   * not only this adapter's: then reconciliation reads one account's statement for the channel
   * instead of each account's.
   *
   * @return by default false: each merchant account has its own statement (Stripe's balance
   *     transactions, Alipay's and WeChat Pay's bills are per account)
   */
  default boolean statementCoversEveryAccount() {
    return false;
  }

  /**
   * The HTTP answer the channel's protocol expects for an outcome (e.g. a 2xx the channel reads as
   * "stop retrying", a 5xx as "retry later").
   */
  ChannelReply reply(CallbackOutcome outcome);

  /**
   * The HTTP answer to a callback payrelay refused (a bad signature, an unparseable body, a media
   * type or size it does not take), in the channel's protocol: every refusal is recorded in the
   * {@code webhook_inbox} row {@code inboxId} first, and the status is one the channel reads as
   * "not accepted" (a 4xx or 5xx), so it retries or reports the failure to the merchant.
   *
   * @param outcome the inbox's outcome, e.g. {@code BAD_SIGNATURE}, {@code MALFORMED}
   * @param httpStatus the status payrelay answers with, e.g. 401, 400, 413, 415
   * @param inboxId the {@code webhook_inbox} row that recorded the request
   * @return by default {@link ChannelReply#jsonRefusal}
   */
  default ChannelReply refusal(String outcome, int httpStatus, long inboxId) {
    return ChannelReply.jsonRefusal(outcome, httpStatus, inboxId);
  }
}

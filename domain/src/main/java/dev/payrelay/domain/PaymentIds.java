package dev.payrelay.domain;

import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The form of the payment ids payrelay mints: {@code pay_} and 32 lower-case hex digits (a random
 * UUID without its dashes), 36 characters. Channels echo the id back (the sandbox's {@code
 * payment_id}, Stripe's {@code metadata.payment_id}, Alipay's and WeChat Pay's {@code
 * out_trade_no}), so an echoed id of another form was never ours: e.g. another integration's
 * PaymentIntent on the same Stripe account.
 */
public final class PaymentIds {

  private static final String PREFIX = "pay_";
  private static final Pattern FORM = Pattern.compile("pay_[0-9a-f]{32}");

  private PaymentIds() {}

  /** A new payment id, random (UUID version 4, RFC 9562). */
  public static String mint() {
    return PREFIX + UUID.randomUUID().toString().replace("-", "");
  }

  /**
   * Whether {@code id} has the form payrelay mints, compared exactly (no trimming, no case
   * folding).
   *
   * @param id an id as a channel echoed it; null is not ours
   */
  public static boolean isOurs(String id) {
    return id != null && FORM.matcher(id).matches();
  }
}

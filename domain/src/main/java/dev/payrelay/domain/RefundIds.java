package dev.payrelay.domain;

import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The refund identifiers payrelay mints: the refund id ({@code rfd_} and 32 lower-case hex digits)
 * that names the refund in our API, and the refund number ({@code rfn} and 32 lower-case hex
 * digits, 35 characters) minted once with the refund row and sent to the channel as its idempotency
 * key: Stripe's {@code Idempotency-Key} header, Alipay's {@code out_request_no} (at most 64
 * characters) and WeChat Pay's {@code out_refund_no} (at most 64 of {@code [A-Za-z0-9_-|*@]}). The
 * number's form fits all three; it never changes, so a resubmission after a channel said "no such
 * refund" reuses it.
 */
public final class RefundIds {

  /** The longest refund number any channel accepts (Alipay, WeChat Pay: 64 characters). */
  public static final int MAX_NUMBER_LENGTH = 64;

  private static final Pattern ID_FORM = Pattern.compile("rfd_[0-9a-f]{32}");
  private static final Pattern NUMBER_FORM = Pattern.compile("rfn[0-9a-f]{32}");

  private RefundIds() {}

  /** A new refund id, random (UUID version 4, RFC 9562). */
  public static String mintId() {
    return "rfd_" + hex();
  }

  /** A new refund number, random (UUID version 4), of the form every channel accepts. */
  public static String mintNumber() {
    return "rfn" + hex();
  }

  /** Whether {@code id} has the form of our refund ids, compared exactly; null is not ours. */
  public static boolean isId(String id) {
    return id != null && ID_FORM.matcher(id).matches();
  }

  /** Whether {@code number} has the form of our refund numbers, compared exactly. */
  public static boolean isNumber(String number) {
    return number != null && NUMBER_FORM.matcher(number).matches();
  }

  private static String hex() {
    return UUID.randomUUID().toString().replace("-", "");
  }
}

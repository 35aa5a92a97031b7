package dev.payrelay.simulators;

import java.security.SecureRandom;

/**
 * Random ids for the channel simulators, in the shapes the real channels use (Stripe's {@code
 * pi_…}, Alipay's and WeChat Pay's all-digit numbers).
 *
 * <p>Random, not counted: a simulator keeps its objects in memory while payrelay's database
 * outlives it, so ids counted from the same start in every new simulator process repeat ids an
 * older payment already holds (issue 14: a second {@code ./payrelay demo} got TXN_CONFLICT). {@link
 * #alphanumeric} draws 62^n values, {@link #digits} 10^n, from a {@link SecureRandom}; at the
 * lengths the simulators use (24 characters, 15 or more digits) a repeat within a development
 * database is not to be expected. Thread-safe.
 */
public final class SimulatorIds {

  private static final String ALPHANUMERIC =
      "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

  private static final SecureRandom RANDOM = new SecureRandom();

  private SimulatorIds() {}

  /**
   * {@code length} random characters of {@code [0-9A-Za-z]}, e.g. the part after Stripe's {@code
   * pi_} (Stripe ids are a type prefix, an underscore and alphanumerics: {@code
   * pi_3MtwBwLkdIwHu7ix28a3tqPa} in https://docs.stripe.com/api/payment_intents/object).
   *
   * @throws IllegalArgumentException if {@code length} is negative
   */
  public static String alphanumeric(int length) {
    return draw(ALPHANUMERIC, length);
  }

  /**
   * {@code length} random decimal digits, leading zeros included (e.g. the random tail of an Alipay
   * {@code trade_no} or a WeChat Pay {@code refund_id}).
   *
   * @throws IllegalArgumentException if {@code length} is negative
   */
  public static String digits(int length) {
    return draw("0123456789", length);
  }

  private static String draw(String alphabet, int length) {
    if (length < 0) {
      throw new IllegalArgumentException("negative length " + length);
    }
    StringBuilder id = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      id.append(alphabet.charAt(RANDOM.nextInt(alphabet.length())));
    }
    return id.toString();
  }
}

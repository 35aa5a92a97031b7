package dev.payrelay.api.auth;

import java.util.Arrays;
import java.util.Locale;

/**
 * What an API key may do. Each role includes the ones before it: {@code admin} can do everything
 * {@code operate} can, which can do everything {@code read} can.
 *
 * <ul>
 *   <li>{@link #READ}: look — a payment's trail, the admin listings (payments, outbox,
 *       reconciliation summaries, consumers' quarantine queues);
 *   <li>{@link #OPERATE}: create payments and fix one payment — resolve it, replay or discard one
 *       of its DEAD events;
 *   <li>{@link #ADMIN}: actions across many payments — replay every DEAD event, start a
 *       reconciliation, replay messages from a consumer's quarantine queue.
 * </ul>
 */
public enum Role implements RouteAccess {
  READ,
  OPERATE,
  ADMIN;

  /** Whether a key with this role may do what {@code needed} guards. */
  public boolean includes(Role needed) {
    return compareTo(needed) >= 0;
  }

  /**
   * The role named {@code name}, case-insensitive ({@code read}, {@code operate}, {@code admin}).
   *
   * @throws IllegalArgumentException naming the roles there are
   */
  public static Role parse(String name) {
    try {
      return valueOf(name.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new IllegalArgumentException(
          "role must be one of "
              + Arrays.toString(values()).toLowerCase(Locale.ROOT)
              + ", got: "
              + name);
    }
  }

  /** The name as configuration writes it, e.g. {@code operate}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}

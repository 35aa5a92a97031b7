package dev.payrelay.app.config;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Locale;

/** Checks on URLs and listener hosts that production mode applies. */
public final class ChannelUrls {

  private ChannelUrls() {}

  /**
   * Whether {@code url} could be one of payrelay's simulators rather than the channel: not https,
   * or a host that reaches this machine: a loopback host ({@link #isLoopbackHost}), one written
   * with a trailing dot ({@code localhost.}), or the unspecified address ({@code 0.0.0.0}, {@code
   * ::}), which a client connects to as this machine. The simulators serve plain http, bound to
   * loopback by {@code payrelay dev}.
   */
  public static boolean isSimulatorLike(URI url) {
    if (!isHttps(url) || url.getHost() == null) {
      return true;
    }
    String host = url.getHost().strip();
    String undotted = host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
    return isLoopbackHost(undotted) || isUnspecifiedAddress(undotted);
  }

  /**
   * Whether {@code host} is a literal of the unspecified address, {@code 0.0.0.0} or {@code ::}.
   */
  private static boolean isUnspecifiedAddress(String host) {
    String h = host.replace("[", "").replace("]", "");
    boolean literal =
        h.contains(":") || (!h.isEmpty() && h.chars().allMatch(c -> c == '.' || isDigit(c)));
    if (!literal) {
      return false;
    }
    try {
      return InetAddress.getByName(h).isAnyLocalAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  /** Whether {@code url}'s scheme is https (any case). */
  static boolean isHttps(URI url) {
    return "https".equalsIgnoreCase(url.getScheme());
  }

  /**
   * Whether a listener bound to, or a URL naming, {@code host} is reachable from this machine only:
   * {@code localhost} (and {@code *.localhost}) or a literal address in {@code 127.0.0.0/8} or
   * {@code ::1} (with or without brackets). A host name is not resolved, so any other name, and
   * {@code 0.0.0.0} (every interface), is not loopback.
   */
  static boolean isLoopbackHost(String host) {
    String h = host.strip().toLowerCase(Locale.ROOT);
    if (h.equals("localhost") || h.endsWith(".localhost")) {
      return true;
    }
    boolean literal =
        h.startsWith("[") || h.contains(":") || h.chars().allMatch(c -> c == '.' || isDigit(c));
    if (!literal || h.isEmpty()) {
      return false;
    }
    try {
      return InetAddress.getByName(h.replace("[", "").replace("]", "")).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  private static boolean isDigit(int c) {
    return c >= '0' && c <= '9';
  }
}

package dev.payrelay.worker;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;

/** Checks on a channel's API URL that production mode applies. */
final class ChannelUrls {

  private ChannelUrls() {}

  /**
   * Whether {@code url} could be one of payrelay's simulators rather than the channel: not https,
   * or a loopback host ({@code localhost}, {@code 127.0.0.0/8}, {@code ::1}). The simulators serve
   * plain http, bound to loopback by {@code payrelay dev}. A host name is not resolved.
   */
  static boolean isSimulatorLike(URI url) {
    if (!"https".equalsIgnoreCase(url.getScheme()) || url.getHost() == null) {
      return true;
    }
    String host = url.getHost();
    if (host.equalsIgnoreCase("localhost")
        || host.toLowerCase(java.util.Locale.ROOT).endsWith(".localhost")) {
      return true;
    }
    boolean literal =
        host.startsWith("[") || host.chars().allMatch(c -> c == '.' || Character.isDigit(c));
    if (!literal) {
      return false;
    }
    try {
      return InetAddress.getByName(host.replace("[", "").replace("]", "")).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return true;
    }
  }
}

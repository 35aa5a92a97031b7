package dev.payrelay.simulators;

/** The port a simulator binds, checked once for every simulator's configuration. */
public final class SimulatorPorts {

  private SimulatorPorts() {}

  /**
   * Checks a TCP port to bind: 0 (an ephemeral one) to 65535.
   *
   * @throws IllegalArgumentException {@code port out of range: <port>}
   */
  public static void requirePort(int port) {
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException("port out of range: " + port);
    }
  }
}

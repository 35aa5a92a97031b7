package dev.payrelay.amqp;

import java.time.Duration;
import java.util.Objects;

/**
 * How payrelay reaches RabbitMQ; read once at start by the composition root and passed by
 * constructor.
 *
 * @param uri AMQP URI with credentials and vhost, e.g. {@code
 *     amqp://guest:guest@127.0.0.1:5672/%2f}; never logged because it carries the password
 * @param exchange the topic exchange events are published to, normally {@link #DEFAULT_EXCHANGE}
 * @param confirmTimeout upper bound of every wait of a publish: borrowing a channel, the publisher
 *     confirm, channel RPCs and the TCP connect; positive, at most {@link Integer#MAX_VALUE}
 *     milliseconds
 * @param channelPoolSize how many confirm-mode channels may be open at once (one per publishing
 *     thread at a time); a publish finding all of them busy waits for one, at most {@code
 *     confirmTimeout}; the worker sets it to its payment activity slots, so none waits; at least 1
 * @param connectionName client-provided connection name shown in the management UI and {@code
 *     rabbitmqctl list_connections client_properties}
 */
public record AmqpConfig(
    String uri,
    String exchange,
    Duration confirmTimeout,
    int channelPoolSize,
    String connectionName) {

  /** The exchange named in DESIGN.md. */
  public static final String DEFAULT_EXCHANGE = "payrelay.events";

  /** Confirm timeout used by {@link #withDefaults}: fsync of a persistent message takes ms. */
  public static final Duration DEFAULT_CONFIRM_TIMEOUT = Duration.ofSeconds(5);

  /** Channel pool size used by {@link #withDefaults}. */
  public static final int DEFAULT_CHANNEL_POOL_SIZE = 4;

  /**
   * Validates every component.
   *
   * @throws IllegalArgumentException for a blank string, a non-positive or too long timeout, or a
   *     pool size below 1
   * @throws NullPointerException for a null component
   */
  public AmqpConfig {
    requireText(uri, "uri");
    requireText(exchange, "exchange");
    requireText(connectionName, "connectionName");
    Objects.requireNonNull(confirmTimeout, "confirmTimeout");
    if (confirmTimeout.isNegative()
        || confirmTimeout.isZero()
        || confirmTimeout.toMillis() > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("confirmTimeout must be 1 ms .. 2^31-1 ms");
    }
    if (channelPoolSize < 1) {
      throw new IllegalArgumentException("channelPoolSize must be >= 1: " + channelPoolSize);
    }
  }

  /** A config on {@link #DEFAULT_EXCHANGE} with the default timeout and pool size. */
  public static AmqpConfig withDefaults(String uri, String connectionName) {
    return new AmqpConfig(
        uri, DEFAULT_EXCHANGE, DEFAULT_CONFIRM_TIMEOUT, DEFAULT_CHANNEL_POOL_SIZE, connectionName);
  }

  /** {@link #confirmTimeout} in whole milliseconds, as the client library's int timeouts want. */
  public int confirmTimeoutMillis() {
    return (int) confirmTimeout.toMillis();
  }

  private static void requireText(String value, String name) {
    Objects.requireNonNull(value, name);
    if (value.isBlank()) {
      throw new IllegalArgumentException(name + " must not be blank");
    }
  }
}

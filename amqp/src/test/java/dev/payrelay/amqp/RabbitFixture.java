package dev.payrelay.amqp;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import dev.payrelay.amqp.publish.OutboundMessage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The real local broker for one test class: names suffixed with a random id so runs never collide,
 * an admin connection to declare and inspect, and deletion of everything named on close.
 */
public final class RabbitFixture implements AutoCloseable {

  public static final String HOST = "127.0.0.1";
  public static final int PORT = 5672;

  private final String suffix = UUID.randomUUID().toString().substring(0, 8);
  private final List<String> exchanges = new ArrayList<>();
  private final List<String> queues = new ArrayList<>();
  private final Connection admin;

  public RabbitFixture() throws Exception {
    ConnectionFactory factory = new ConnectionFactory();
    factory.setUri(uri(HOST, PORT));
    admin = factory.newConnection("payrelay-test-admin-" + suffix);
  }

  static String uri(String host, int port) {
    return "amqp://guest:guest@" + host + ":" + port + "/%2f";
  }

  /** A config for a publisher on {@code exchange} via {@code port} (the broker or a proxy). */
  public AmqpConfig config(String exchange, int port, Duration confirmTimeout, int poolSize) {
    return new AmqpConfig(
        uri(HOST, port), exchange, confirmTimeout, poolSize, name("payrelay-test-publisher"));
  }

  public String suffix() {
    return suffix;
  }

  public String name(String base) {
    return base + "." + suffix;
  }

  /** An exchange name owned by this fixture, deleted on close. */
  public String exchangeName(String base) {
    String name = name(base);
    exchanges.add(name);
    return name;
  }

  /** A queue name owned by this fixture, deleted on close. */
  public String queueName(String base) {
    String name = name(base);
    queues.add(name);
    return name;
  }

  /** Deletes {@code queue} on close too (a name the code under test chose). */
  public String ownQueue(String queue) {
    queues.add(queue);
    return queue;
  }

  public Connection admin() {
    return admin;
  }

  public void declare(String exchange, List<QueueBinding> bindings) throws Exception {
    new AmqpTopology().declare(admin, exchange, bindings);
  }

  /** Takes one message off {@code queue} (auto-ack), or null when it is empty. */
  public GetResponse get(String queue) throws Exception {
    try (Channel channel = admin.createChannel()) {
      return channel.basicGet(queue, true);
    }
  }

  public long messageCount(String queue) throws Exception {
    try (Channel channel = admin.createChannel()) {
      return channel.queueDeclarePassive(queue).getMessageCount();
    }
  }

  boolean exchangeExists(String exchange) throws Exception {
    Channel channel = admin.createChannel();
    try {
      channel.exchangeDeclarePassive(exchange);
      channel.close();
      return true;
    } catch (IOException e) {
      return false; // 404 closed the channel
    }
  }

  public void deleteExchange(String exchange) throws Exception {
    try (Channel channel = admin.createChannel()) {
      channel.exchangeDelete(exchange);
    }
  }

  public static OutboundMessage message(String eventId, String routingKey) {
    return new OutboundMessage(
        eventId,
        "PaymentConfirmed",
        1,
        routingKey,
        "pay-" + eventId,
        1,
        1,
        ("{\"eventId\":\"" + eventId + "\"}").getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public void close() throws Exception {
    try (Channel channel = admin.createChannel()) {
      for (String queue : queues) {
        channel.queueDelete(queue);
      }
      for (String exchange : exchanges) {
        channel.exchangeDelete(exchange);
      }
    } finally {
      admin.close();
    }
  }
}

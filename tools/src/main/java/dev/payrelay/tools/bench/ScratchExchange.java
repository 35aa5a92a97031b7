package dev.payrelay.tools.bench;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import java.io.IOException;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A baseline's own durable topic exchange and durable queue bound to it with {@code #}, as
 * payrelay's are, on the same broker; deleted on close. Publishes go through a pool of channels in
 * confirm mode (a channel belongs to one thread at a time), {@code mandatory} and persistent, each
 * waiting for its confirm up to {@value #CONFIRM_TIMEOUT_MS} ms (per the RabbitMQ publisher
 * confirms docs, as payrelay's publisher does); a returned message is counted.
 */
final class ScratchExchange implements AutoCloseable {

  static final long CONFIRM_TIMEOUT_MS = 5_000;

  private final Connection connection;
  private final String exchange;
  private final String queue;
  private final BlockingQueue<Channel> channels;
  private final AtomicLong returned = new AtomicLong();

  /** Declares both and opens {@code poolSize} confirming channels. */
  ScratchExchange(String amqpUri, int poolSize) throws Exception {
    ConnectionFactory factory = new ConnectionFactory();
    factory.setUri(amqpUri);
    connection = factory.newConnection("payrelay-bench-baseline");
    exchange = "payrelay.bench." + UUID.randomUUID().toString().substring(0, 8);
    queue = exchange + ".q";
    try (Channel ch = connection.createChannel()) {
      ch.exchangeDeclare(exchange, "topic", true);
      ch.queueDeclare(queue, true, false, false, null);
      ch.queueBind(queue, exchange, "#");
    }
    channels = new ArrayBlockingQueue<>(poolSize);
    for (int i = 0; i < poolSize; i++) {
      Channel ch = connection.createChannel();
      ch.confirmSelect();
      ch.addReturnListener(r -> returned.incrementAndGet());
      channels.add(ch);
    }
  }

  Connection connection() {
    return connection;
  }

  String queue() {
    return queue;
  }

  /** Messages the broker returned as unroutable. */
  long returned() {
    return returned.get();
  }

  /** Takes a confirming channel for the calling thread; give it back with {@link #release}. */
  Channel take() throws InterruptedException {
    return channels.take();
  }

  void release(Channel channel) {
    channels.add(channel);
  }

  /** Publishes one persistent, mandatory message on {@code ch}; {@link #confirm} awaits it. */
  void publish(Channel ch, String messageId, byte[] body) throws IOException {
    ch.basicPublish(
        exchange,
        "bench.event",
        true,
        new com.rabbitmq.client.AMQP.BasicProperties.Builder()
            .messageId(messageId)
            .deliveryMode(2)
            .contentType("application/json")
            .build(),
        body);
  }

  /**
   * Waits for every outstanding confirm of {@code ch}.
   *
   * @throws IOException when one was nacked or the wait timed out (the channel is then closed)
   */
  void confirm(Channel ch) throws IOException, InterruptedException, TimeoutException {
    ch.waitForConfirmsOrDie(CONFIRM_TIMEOUT_MS);
  }

  @Override
  public void close() throws Exception {
    try (Channel ch = connection.createChannel()) {
      ch.queueDelete(queue);
      ch.exchangeDelete(exchange);
    }
    connection.close((int) TimeUnit.SECONDS.toMillis(5));
  }
}

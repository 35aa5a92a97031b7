package dev.payrelay.amqp.publish;

import static dev.payrelay.amqp.RabbitFixture.message;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.payrelay.amqp.QueueBinding;
import dev.payrelay.amqp.RabbitFixture;
import dev.payrelay.domain.failure.PublishFailure;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Channel replacement after a broker-closed channel, and the pool bound under concurrency. */
class ConfirmingPublisherChannelPoolTest {

  private RabbitFixture rabbit;
  private String exchange;
  private String queue;

  @BeforeEach
  void declareTopology() throws Exception {
    rabbit = new RabbitFixture();
    exchange = rabbit.exchangeName("payrelay.events.pool");
    queue = rabbit.queueName("payrelay.pool");
    rabbit.declare(exchange, List.of(new QueueBinding(queue, "payment.#")));
  }

  @AfterEach
  void cleanUp() throws Exception {
    rabbit.close();
  }

  @Test
  void missingExchange_failsBrokerUnavailable_andNextPublishUsesAFreshChannel() throws Exception {
    try (ConfirmingPublisher publisher =
        new ConfirmingPublisher(rabbit.config(exchange, RabbitFixture.PORT, seconds(5), 1))) {
      publisher.publish(message("evt-before", "payment.created"));
      rabbit.deleteExchange(exchange);

      assertThatThrownBy(() -> publisher.publish(message("evt-404", "payment.created")))
          .isInstanceOfSatisfying(
              PublishException.class,
              e -> {
                assertThat(e.failure()).isEqualTo(PublishFailure.BROKER_UNAVAILABLE);
                assertThat(e.getMessage()).contains("404");
              });
      assertThat(publisher.openChannelCount()).isZero();

      rabbit.declare(exchange, List.of(new QueueBinding(queue, "payment.#")));
      publisher.publish(message("evt-after", "payment.created"));
      assertThat(publisher.openChannelCount()).isEqualTo(1);
      assertThat(publisher.isHealthy()).isTrue();
      await().atMost(seconds(5)).until(() -> rabbit.messageCount(queue) == 2);
    }
  }

  @Test
  void concurrentPublishesFromEightThreads_areAllConfirmed_withinThePoolBound() throws Exception {
    int poolSize = 3;
    int publishes = 200;
    AtomicInteger maxOpen = new AtomicInteger();
    ExecutorService threads = Executors.newFixedThreadPool(8);
    try (ConfirmingPublisher publisher =
        new ConfirmingPublisher(
            rabbit.config(exchange, RabbitFixture.PORT, seconds(10), poolSize))) {
      List<Future<?>> results = new ArrayList<>();
      for (int i = 0; i < publishes; i++) {
        String eventId = "evt-" + i + "-" + rabbit.suffix();
        results.add(
            threads.submit(
                () -> {
                  publisher.publish(message(eventId, "payment.confirmed"));
                  maxOpen.accumulateAndGet(publisher.openChannelCount(), Math::max);
                  return null;
                }));
      }
      for (Future<?> result : results) {
        result.get(30, TimeUnit.SECONDS); // rethrows any PublishException
      }
      assertThat(maxOpen.get()).isBetween(1, poolSize);
      assertThat(publisher.openChannelCount()).isBetween(1, poolSize);
      await().atMost(seconds(10)).until(() -> rabbit.messageCount(queue) == publishes);
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void publishAfterClose_isRejected_andHealthReportsDown() throws Exception {
    ConfirmingPublisher publisher =
        new ConfirmingPublisher(rabbit.config(exchange, RabbitFixture.PORT, seconds(5), 1));
    publisher.publish(message("evt-open", "payment.created"));
    publisher.close();

    assertThat(publisher.isHealthy()).isFalse();
    assertThatThrownBy(() -> publisher.publish(message("evt-closed", "payment.created")))
        .isInstanceOf(IllegalStateException.class);
    assertThat(rabbit.messageCount(queue)).isEqualTo(1);
  }

  private static Duration seconds(long seconds) {
    return Duration.ofSeconds(seconds);
  }
}

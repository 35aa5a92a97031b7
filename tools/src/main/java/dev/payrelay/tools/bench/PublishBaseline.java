package dev.payrelay.tools.bench;

import com.rabbitmq.client.Channel;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Baseline (b): confirmed, persistent, mandatory publishes in a plain loop on a scratch exchange
 * and queue, one confirm awaited per message (what payrelay's publish activity does per event).
 * Open loop uses {@value BaselineBench#OPEN_LOOP_POOL} channels; closed loop one per caller.
 */
final class PublishBaseline implements BaselineBench {

  private final String amqpUri;

  PublishBaseline(String amqpUri) {
    this.amqpUri = amqpUri;
  }

  @Override
  public String name() {
    return "publish";
  }

  @Override
  public List<String> servers() {
    return List.of("rabbitmq");
  }

  @Override
  public BenchResult.Baseline run(LoadShape shape, int count, int warmup, CpuMeter meter)
      throws Exception {
    try (ScratchExchange broker = new ScratchExchange(amqpUri, BaselineBench.pool(shape))) {
      byte[] body = "{\"paymentId\":\"p\",\"amountMinor\":1999}".getBytes(StandardCharsets.UTF_8);
      Load.Operation publish =
          (i, at) -> {
            Channel ch = broker.take();
            try {
              broker.publish(ch, "m-" + i, body);
              broker.confirm(ch);
            } finally {
              broker.release(ch);
            }
          };
      Load.Result r = BaselineBench.warmedUp(shape, count, warmup, meter, publish);
      return BenchResult.Baseline.of(
          name(),
          "persistent mandatory publish + wait for its confirm",
          r,
          r.errors() + (int) broker.returned(),
          broker.returned() > 0 ? broker.returned() + " returned unroutable" : r.firstError());
    }
  }
}

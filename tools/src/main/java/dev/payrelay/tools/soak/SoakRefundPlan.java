package dev.payrelay.tools.soak;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.ToIntFunction;

/**
 * How the soak refunds one payment: what it asks ({@link Shape}) and how the sandbox treats the
 * payment's refunds ({@link Behaviour}, a {@code dev.payrelay.simulators.RefundMode} set per
 * payment), chosen from the soak's seeded {@link Random}.
 *
 * @param partMinor the first (or only) part for PARTIAL, TWO_PARTS and RETRIED, minor units: 1 up
 *     to the amount less 1 (the whole amount for RETRIED half the time)
 */
record SoakRefundPlan(Shape shape, Behaviour behaviour, long partMinor) {

  /** What the soak asks for a payment. */
  enum Shape {
    /** One refund of the whole amount. */
    FULL(30),
    /** One refund of part of it. */
    PARTIAL(25),
    /**
     * Two refunds one after the other, together the whole amount (the second makes it REFUNDED).
     */
    TWO_PARTS(15),
    /** One refund whose request (same Idempotency-Key, same body) is sent twice at once. */
    RETRIED(20),
    /**
     * Two full refunds at once under two keys: exactly one may be accepted, the other is 409. Never
     * with {@link Behaviour#FAIL}: a failed first refund frees the amount for the second.
     */
    RACE(10);

    private final int weight;

    Shape(int weight) {
      this.weight = weight;
    }

    /** E.g. {@code two parts}. */
    String label() {
      return name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }
  }

  /** How the sandbox treats the payment's refunds. */
  enum Behaviour {
    /** Answers at once and delivers the callback. */
    NORMAL(25, Map.of("callbacks", "DELIVER")),
    /**
     * Answers after {@link #LATE_ANSWER}, past the sandbox adapter's 5 s request timeout, while the
     * refund succeeded; the callback is delivered.
     */
    LATE(15, Map.of("callbacks", "DELIVER", "answer_delay_millis", LATE_ANSWER)),
    /** Answers late and loses the callback: only a query can tell. */
    LATE_LOST_CALLBACK(15, Map.of("callbacks", "DROP", "answer_delay_millis", LATE_ANSWER)),
    /** Reports the refund twice, under two notification ids. */
    TWICE(20, Map.of("callbacks", "TWICE")),
    /** Answers the submit PENDING and loses the callback: only a query can tell. */
    PENDING_LOST_CALLBACK(10, Map.of("callbacks", "DROP", "pending_answers", 1)),
    /** Fails the refund (answered and reported FAILED): the one case a refund may end FAILED. */
    FAIL(15, Map.of("callbacks", "DELIVER", "fail", true));

    private final int weight;
    private final Map<String, Object> mode;

    Behaviour(int weight, Map<String, Object> mode) {
      this.weight = weight;
      this.mode = mode;
    }

    /** The body of {@code POST /sandbox/v1/admin/refund-mode} without its {@code payment_id}. */
    Map<String, Object> mode() {
      return mode;
    }

    /** E.g. {@code late lost callback}. */
    String label() {
      return name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }
  }

  /** Milliseconds: above the sandbox adapter's 5 s request timeout (ApiRuntime). */
  static final long LATE_ANSWER = 7_000;

  /** A plan for a payment of {@code amountMinor} (at least 2 minor units). */
  static SoakRefundPlan choose(Random random, long amountMinor) {
    Shape shape = weighted(random, List.of(Shape.values()), Shape.FULL, s -> s.weight);
    List<Behaviour> behaviours =
        shape == Shape.RACE
            ? List.of(Behaviour.values()).stream().filter(b -> b != Behaviour.FAIL).toList()
            : List.of(Behaviour.values());
    Behaviour behaviour = weighted(random, behaviours, Behaviour.NORMAL, b -> b.weight);
    long part = 1 + random.nextLong(amountMinor - 1);
    if (shape == Shape.RETRIED && random.nextBoolean()) {
      part = amountMinor;
    }
    return new SoakRefundPlan(shape, behaviour, part);
  }

  private static <T> T weighted(Random random, List<T> items, T fallback, ToIntFunction<T> weight) {
    int total = items.stream().mapToInt(weight).sum();
    int pick = random.nextInt(total);
    for (T item : items) {
      pick -= weight.applyAsInt(item);
      if (pick < 0) {
        return item;
      }
    }
    return fallback;
  }
}

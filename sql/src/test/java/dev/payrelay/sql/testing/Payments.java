package dev.payrelay.sql.testing;

import dev.payrelay.domain.Money;
import dev.payrelay.sql.NewPayment;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

/** Payment requests for tests. */
public final class Payments {

  /** The merchant id test payments are created for. */
  public static final String MERCHANT = "m_test";

  private Payments() {}

  /** A sandbox payment of {@code amount} buying {@code courseIds}, without idempotency key. */
  public static NewPayment newPayment(Money amount, String... courseIds) {
    return new NewPayment(
        "t1",
        "order-" + UUID.randomUUID(),
        "user-" + UUID.randomUUID().toString().substring(0, 8),
        "sandbox",
        MERCHANT,
        amount,
        List.of(courseIds),
        null,
        null,
        Duration.ofMinutes(30));
  }
}

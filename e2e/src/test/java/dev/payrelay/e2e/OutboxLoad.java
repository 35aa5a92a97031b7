package dev.payrelay.e2e;

import dev.payrelay.domain.Money;
import dev.payrelay.ledger.payment.PaymentStore;
import dev.payrelay.ledger.testing.Payments;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Writes many payments (one PaymentCreated outbox row each) through the real store, in parallel.
 */
final class OutboxLoad {

  private OutboxLoad() {}

  /** Creates {@code n} payments on 4 threads; returns their ids. */
  static List<String> payments(PaymentStore payments, int n) throws Exception {
    List<Future<String>> futures = new ArrayList<>();
    try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
      for (int i = 0; i < n; i++) {
        futures.add(
            pool.submit(
                () ->
                    payments
                        .create(Payments.newPayment(Money.parse("4.20", "USD"), "c1"))
                        .payment()
                        .paymentId()));
      }
    }
    List<String> ids = new ArrayList<>();
    for (Future<String> f : futures) {
      ids.add(f.get());
    }
    return ids;
  }

  /** Rows per second, for the printed throughput lines. */
  static double perSecond(int rows, long nanos) {
    return rows / (nanos / 1e9);
  }
}

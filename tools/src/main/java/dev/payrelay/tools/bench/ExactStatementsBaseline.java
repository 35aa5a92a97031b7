package dev.payrelay.tools.bench;

import dev.payrelay.domain.event.EventJson;
import dev.payrelay.ledger.outbox.OutboxWriter;
import dev.payrelay.ledger.payment.PaymentStore;
import java.util.List;

/**
 * Baseline {@code exact-statements} (issue 29 target 2): the statements one accepted callback sends
 * to MariaDB, exactly as payrelay sends them ({@link CallbackStatements}, recorded from payrelay's
 * own webhook code at the start of the run), replayed over plain JDBC ({@link RecordedStatement})
 * for each operation's own PENDING payment, with no HTTP, HMAC, JSON or jOOQ in between: the
 * database's floor under a callback. On a scratch database migrated to payrelay's schema, through a
 * HikariCP pool of payrelay's settings and size ({@code PAYRELAY_DB_POOL}), at the same load shape
 * as payrelay's callbacks (in closed loop as many callers). Each replayed statement must change as
 * many rows as the recorded one did, or the operation counts as an error.
 */
final class ExactStatementsBaseline implements BaselineBench {

  private final BenchTarget target;

  ExactStatementsBaseline(BenchTarget target) {
    this.target = target;
  }

  @Override
  public String name() {
    return "exact-statements";
  }

  @Override
  public List<String> servers() {
    return List.of("mariadb");
  }

  @Override
  public BenchResult.Baseline run(LoadShape shape, int count, int warmup, CpuMeter meter)
      throws Exception {
    try (ScratchDatabase db =
        new ScratchDatabase(target.database(), target.database().maxPoolSize())) {
      db.database().migrate();
      CallbackStatements callback =
          CallbackStatements.record(db.database(), target.merchantId(), target.sandboxSecret());
      String[] ids = pendingPayments(db, count + warmup);
      List<Object> values = callback.values();
      Load.Result r =
          BaselineBench.warmedUp(
              shape,
              count,
              warmup,
              meter,
              (i, at) ->
                  RecordedStatement.replay(
                      db.dataSource(),
                      callback.statements(),
                      Substitution.of(values, callback.paymentId(), ids[i], callback.inboxId())));
      return BenchResult.Baseline.of(
          name(),
          "the "
              + callback.statements().size()
              + " statements of one accepted callback, as payrelay sends them, over JDBC",
          r);
    }
  }

  /** {@code n} PENDING payments created by payrelay's {@link PaymentStore}, 8 at a time. */
  private String[] pendingPayments(ScratchDatabase db, int n) throws InterruptedException {
    PaymentStore payments =
        new PaymentStore(db.database().dsl(), new OutboxWriter(new EventJson()));
    String[] ids = new String[n];
    Load.Result r =
        Load.run(
            new LoadShape(null, 8),
            n,
            (i, at) -> ids[i] = CallbackStatements.pending(payments, target.merchantId(), "p" + i));
    if (r.errors() > 0) {
      throw new IllegalStateException(
          r.errors() + " of " + n + " payments could not be created; first: " + r.firstError());
    }
    return ids;
  }
}

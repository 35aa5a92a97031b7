package dev.payrelay.tools.soak;

import static dev.payrelay.ledger.db.generated.Tables.PAYMENT_ORDER;

import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.config.mapping.PartialRefundGrants;
import dev.payrelay.app.runtime.ApiRuntime;
import dev.payrelay.domain.PaymentStatus;
import dev.payrelay.ledger.payment.LedgerSnapshot;
import dev.payrelay.tools.soak.SoakAudit.Violation;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One soak run: {@link SoakStack} up, {@link SoakBuyers} buying while {@link SoakFaults} kill, cut
 * and hang, then the drain (until {@link SoakAudit} finds nothing, or the drain limit), {@code
 * payrelay check}, and the {@link SoakReport}. The children are stopped on every way out, Ctrl-C
 * included.
 */
final class Soak {

  private static final Duration DRAIN_POLL = Duration.ofSeconds(2);
  // Buyers retry each call for up to 90 s; the faults are over by now, so they finish sooner.
  private static final Duration BUYERS_FINISH_WITHIN = Duration.ofSeconds(100);
  // A refund waits for its payment's fulfilment (up to 120 s), then retries each call for 90 s;
  // with the faults over, those of the last payments are settled within seconds.
  private static final Duration REFUNDS_FINISH_WITHIN = Duration.ofSeconds(150);

  private final SoakPlan plan;
  private final Map<String, String> env;
  private final PrintWriter out;

  Soak(SoakPlan plan, Map<String, String> env, PrintWriter out) {
    this.plan = plan;
    this.env = Map.copyOf(env);
    this.out = out;
  }

  /**
   * Runs the soak and prints its report.
   *
   * @return 0 when no rule was broken, 1 otherwise
   */
  int run() throws Exception {
    SoakNames names = SoakNames.fresh();
    Path dir = dir(names);
    out.printf("soak %s: seed %d, %s%n", names.id(), plan.seed(), plan.describe());
    out.flush();
    SoakStack stack = SoakStack.open(env, names, dir, out);
    Thread stop = stopHook(names, stack);
    Runtime.getRuntime().addShutdownHook(stop);
    try (stack;
        SoakTap tap =
            SoakTap.open(
                stack.environment().direct().get("PAYRELAY_AMQP_URI"),
                names.exchange(),
                names.queue())) {
      stack.startChildren(dir, out);
      SoakReport report = soak(stack, tap);
      report.print(out);
      return report.passed() ? 0 : 1;
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(stop);
      } catch (IllegalStateException shuttingDown) {
        // the hook is running: it stops everything
      }
    }
  }

  /** The run's folder: {@code <--dir or PAYRELAY_DATA_DIR/soak>/<run id>}. */
  private Path dir(SoakNames names) {
    return (plan.dir() != null
            ? plan.dir()
            : PayrelayConfig.fromEnv(env).temporal().local().dataDir().resolve("soak"))
        .resolve(names.id());
  }

  /** On Ctrl-C: says what the run leaves behind and stops the stack. */
  private Thread stopHook(SoakNames names, SoakStack stack) {
    return new Thread(
        () -> {
          out.printf(
              "%nsoak stopped early: children stopped; left database %s, exchange %s, queue"
                  + " %s, Temporal namespace %s%n",
              names.databaseName(), names.exchange(), names.queue(), names.namespace());
          out.flush();
          stack.close();
        },
        "soak-stop");
  }

  private SoakReport soak(SoakStack stack, SoakTap tap) throws Exception {
    PayrelayConfig config = PayrelayConfig.fromEnv(stack.environment().direct());
    Instant start = Instant.now();
    SoakRefunds refunds = refunds(stack, config);
    SoakBuyers buyers = buyers(config, refunds);
    SoakFaults faults = new SoakFaults(stack, new Random(plan.seed()), start, out);
    List<Violation> violations =
        new ArrayList<>(buyUnderFaults(buyers, refunds, faults, tap, start));
    Instant faultsOver = Instant.now();
    Auditor auditor = new Auditor(stack, buyers, refunds, tap, start, config);
    Audit atFaultsOver = auditor.audit();
    Audit audit = drain(stack, auditor, faultsOver.plus(plan.drainLimit()));
    Duration drainTook =
        audit.violations().isEmpty() ? Duration.between(faultsOver, Instant.now()) : null;
    SoakCheck.Outcome check = SoakCheck.run(stack.environment().direct());
    violations.addAll(audit.violations());
    violations.addAll(check.findings());
    Map<String, Integer> exits = unexpectedExits(stack);
    String leftBehind = cleanUp(stack, tap, violations.isEmpty());
    return new SoakReport(
        stack.names().id(),
        plan,
        buyers.tally(),
        audit.payments(),
        refunds.tally(),
        audit.refunds(),
        faults.happened(),
        exits,
        new SoakReport.Drain(drainTook, atFaultsOver.violations().size()),
        check,
        violations,
        settings(config),
        stack.children().all().stream().map(SoakProcess::log).toList(),
        leftBehind);
  }

  /** Buyers on the children's API and sandbox, their choices seeded from the plan's seed. */
  private SoakBuyers buyers(PayrelayConfig config, SoakRefunds refunds) {
    return new SoakBuyers(
        api(config),
        config.access().clientKey(),
        config.sandbox().url(),
        new Random(~plan.seed()),
        refunds::paid);
  }

  /** Refunds on the children's API and sandbox, their choices seeded from the plan's seed. */
  private SoakRefunds refunds(SoakStack stack, PayrelayConfig config) {
    return new SoakRefunds(
        api(config),
        config.access().clientKey(),
        new SoakSandbox(config.sandbox().url(), ApiRuntime.sandboxChannel(config)),
        ids -> fulfilled(stack, ids),
        plan.refundShare(),
        new Random(plan.seed() * 31 + 7));
  }

  /**
   * Those of {@code paymentIds} PAID in the soak's database whose latest run visibility lists
   * COMPLETED {@code FULFILLED}: one ledger read and a List Filter per 100, directly.
   *
   * @throws IllegalStateException when Temporal cannot list the runs
   */
  private static Set<String> fulfilled(SoakStack stack, List<String> paymentIds) {
    List<String> paid =
        stack
            .dsl()
            .select(PAYMENT_ORDER.PAYMENT_ID)
            .from(PAYMENT_ORDER)
            .where(PAYMENT_ORDER.PAYMENT_ID.in(paymentIds))
            .and(PAYMENT_ORDER.STATUS.eq(PaymentStatus.PAID.name()))
            .fetch(PAYMENT_ORDER.PAYMENT_ID);
    SoakRuns.Listed runs = SoakRuns.latest(stack.temporalClient(), paid);
    if (runs.failure() != null) {
      throw new IllegalStateException(runs.failure());
    }
    return paid.stream()
        .filter(id -> SoakRuns.fulfilled(runs.latest().get(id)))
        .collect(Collectors.toSet());
  }

  private static URI api(PayrelayConfig config) {
    return URI.create("http://127.0.0.1:" + config.api().port());
  }

  /** Each child's exits that no fault caused, by role. */
  private static Map<String, Integer> unexpectedExits(SoakStack stack) {
    Map<String, Integer> exits = new LinkedHashMap<>();
    stack.children().all().forEach(p -> exits.put(p.role(), p.unexpectedExits()));
    return exits;
  }

  /**
   * The buyers buy while the faults run for the plan's length, then get {@link
   * #BUYERS_FINISH_WITHIN} to finish.
   *
   * @return a {@code RESTART} violation when a killed part could not be started again, else none
   */
  private List<Violation> buyUnderFaults(
      SoakBuyers buyers, SoakRefunds refunds, SoakFaults faults, SoakTap tap, Instant start)
      throws Exception {
    try (SoakProgress progress = new SoakProgress(start, buyers, tap, out)) {
      buyers.start(plan.rate());
      faults.run(start.plus(plan.length()));
      return List.of();
    } catch (IllegalStateException e) {
      return List.of(new Violation("RESTART", null, e.getMessage()));
    } finally {
      buyers.stop(BUYERS_FINISH_WITHIN);
      refunds.stop(REFUNDS_FINISH_WITHIN);
    }
  }

  /** Audits every two seconds until nothing is found or {@code until}; the last audit. */
  private static Audit drain(SoakStack stack, Auditor auditor, Instant until) throws Exception {
    while (true) {
      stack.children().reviveDead();
      Audit audit = auditor.audit();
      if (audit.violations().isEmpty() || Instant.now().isAfter(until)) {
        return audit;
      }
      Thread.sleep(DRAIN_POLL);
    }
  }

  /** One audit: the payments' ({@link SoakAudit}) and the refunds' ({@link SoakRefundAudit}). */
  private record Audit(SoakAudit.Result payments, SoakRefundAudit.Result refunds) {

    /** Both audits' violations, the payments' first. */
    List<Violation> violations() {
      List<Violation> all = new ArrayList<>(payments.violations());
      all.addAll(refunds.violations());
      return all;
    }
  }

  /** What an audit reads: the soak's database, buyers, refunds, queue and Temporal runs. */
  private record Auditor(
      SoakStack stack,
      SoakBuyers buyers,
      SoakRefunds refunds,
      SoakTap tap,
      Instant start,
      PayrelayConfig config) {

    Audit audit() {
      LedgerSnapshot ledger = LedgerSnapshot.read(stack.dsl());
      List<String> ids = ledger.payments().stream().map(LedgerSnapshot.Payment::paymentId).toList();
      List<SoakTap.Delivery> arrivals = tap.arrivals();
      SoakAudit.Result payments =
          SoakAudit.of(
              ledger, buyers.payments(), arrivals, SoakRuns.latest(stack.temporalClient(), ids));
      SoakRefundAudit.Result refunded =
          SoakRefundAudit.read(
              stack.dsl(),
              refunds,
              refunds.sandbox(),
              SoakTap.counts(arrivals).keySet(),
              start,
              config.consumers().partialGrants() == PartialRefundGrants.REVOKE_ALL);
      return new Audit(payments, refunded);
    }
  }

  private String cleanUp(SoakStack stack, SoakTap tap, boolean passed) throws Exception {
    stack.children().close();
    SoakNames names = stack.names();
    if (!passed || plan.keep()) {
      return "database %s, exchange %s, queue %s, Temporal namespace %s%s (kept%s)"
          .formatted(
              names.databaseName(),
              names.exchange(),
              names.queue(),
              names.namespace(),
              stack
                  .ownTemporal()
                  .map(t -> " in store " + t.store().toAbsolutePath() + " (its server stopped)")
                  .orElse(""),
              passed ? " as asked" : " for inspection");
    }
    tap.deleteTopology(
        names.exchange(),
        names.queue(),
        // The children's own consumer settings: their prefix (the soak's exchange), their delays.
        PayrelayConfig.fromEnv(stack.environment().direct()).consumers().queues());
    stack.dropDatabase();
    try {
      stack.deleteNamespace();
    } catch (RuntimeException e) {
      return "Temporal namespace %s (not deleted: %s); database, exchange and queue removed"
          .formatted(names.namespace(), e.getMessage());
    }
    return "nothing: database, exchange, queue and Temporal namespace removed (--keep keeps them)";
  }

  private static String settings(PayrelayConfig config) {
    return "%s; sandbox callbacks: %s; dispatch lease %d s, redispatch after %d s (as configured)"
        .formatted(
            SoakEnvironment.BEHAVIOUR,
            SoakChildren.CALLBACK_RETRIES,
            config.dispatcher().lease().toSeconds(),
            config.dispatcher().redispatchAfter().toSeconds());
  }
}

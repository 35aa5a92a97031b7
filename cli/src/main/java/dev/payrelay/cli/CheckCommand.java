package dev.payrelay.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.payrelay.api.auth.ApiKeys;
import dev.payrelay.app.config.PayrelayConfig;
import dev.payrelay.app.dispatch.WorkflowHandoff;
import dev.payrelay.app.jobs.ChannelQueryCheck;
import dev.payrelay.app.jobs.UndecidedCallbackCheck;
import dev.payrelay.app.jobs.WorkflowStateCheck;
import dev.payrelay.app.runtime.ApiRuntime;
import dev.payrelay.app.runtime.Services;
import dev.payrelay.app.temporal.TemporalConnection;
import dev.payrelay.domain.channel.ChannelRegistry;
import dev.payrelay.ledger.checks.Ages;
import dev.payrelay.ledger.checks.CheckScope;
import dev.payrelay.ledger.checks.PaymentChecks;
import dev.payrelay.ledger.checks.PaymentFinding;
import dev.payrelay.ledger.db.Database;
import dev.payrelay.ledger.db.DatabaseUnavailableException;
import dev.payrelay.temporal.client.PaymentListingUnavailableException;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.jooq.exception.DataAccessException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code payrelay check}: lists, with reasons, every payment that breaks DESIGN.md's rules — the
 * database checks of {@link PaymentChecks}, callbacks never decided ({@link
 * UndecidedCallbackCheck}), then the ledger against each PAID payment's workflow ({@link
 * WorkflowStateCheck}) — and with {@code --repair} re-drives those with a safe repair ({@link
 * CheckRepair}). Read-only without {@code --repair}; safe against production data: every query is
 * bounded and index-served, Temporal is asked in batches. Exit codes: {@link #CLEAN}, {@link
 * #FOUND}, {@link #BAD_INPUT}, {@link #TEMPORAL_UNAVAILABLE}, {@link #DATABASE_UNAVAILABLE}.
 */
@Command(
    name = "check",
    mixinStandardHelpOptions = true,
    description = {
      "List every payment that breaks payrelay's rules, with reasons.",
      "  PAID without its PaymentConfirmed event;",
      "  events not SENT past the age (PENDING, DISPATCHED, DEAD);",
      "  PAID without all entitlements past the age;",
      "  entitlements nobody bought; open double payments;",
      "  other open exceptions past the age (kind, amount expected vs reported);",
      "  entitlements on unpaid payments; PENDING payments past their deadline;",
      "  callbacks stored and never decided whose payment is still undecided;",
      "  PAID payments whose workflow is missing or shows AWAITING_PAYMENT,",
      "  CLOSED or EXPIRED (Temporal visibility, 100 payments per query);",
      "  every message in a consumer's quarantine queue (RabbitMQ).",
      "Ages are by the database clock. --repair re-drives what is safe (the same",
      "event id to the payment's workflow: REGRANT, REPUBLISH, REDRIVE), audited",
      "in operator_action; the rest is listed with what to do (MANUAL: ...)."
    },
    footer = {
      "",
      "Exit codes: 0 nothing found (with --repair: every finding's repair was sent",
      "and audited; check again later to see it took), 1 findings, 2 bad input,",
      "3 Temporal unreachable or unable to list (the database findings are still",
      "printed), 4 database unreachable."
    })
public final class CheckCommand implements Callable<Integer> {

  public static final int CLEAN = 0;
  public static final int FOUND = 1;
  public static final int BAD_INPUT = 2;
  public static final int TEMPORAL_UNAVAILABLE = 3;
  static final int DATABASE_UNAVAILABLE = 4;

  @ParentCommand PayrelayCommand payrelay;

  @Spec CommandSpec spec;

  @Option(
      names = "--older-than",
      defaultValue = "10m",
      converter = Durations.class,
      description = "Age past which work in flight is a finding: 90s, 10m, 2h or 1d (default 10m).")
  Duration olderThan;

  @Option(
      names = "--within",
      defaultValue = "7d",
      converter = Durations.class,
      description =
          "How far back payments are looked at, by paid_at (unpaid ones by deadline), and"
              + " callbacks never decided, by arrival; default 7d. Events not SENT and open double"
              + " payments are listed at any age.")
  Duration within;

  @Option(
      names = "--limit",
      defaultValue = "1000",
      description = "At most this many findings per check, 1..100000 (default 1000).")
  int limit;

  @Option(names = "--no-temporal", description = "Skip the comparison with the workflows.")
  boolean noTemporal;

  @Option(
      names = "--repair",
      description = "Re-drive the findings with a safe repair (needs --operator and Temporal).")
  boolean repair;

  @Option(names = "--operator", description = "Who repairs; recorded in operator_action.")
  String operator;

  @Option(names = "--json", description = "Print JSON on stdout instead of a table.")
  boolean json;

  @Override
  public Integer call() throws JsonProcessingException {
    PrintWriter err = spec.commandLine().getErr();
    PayrelayConfig config;
    CheckScope scope;
    ChannelRegistry channels;
    try {
      refuseBadInput();
      config = payrelay.configuration();
      scope = new CheckScope(olderThan, within, config.outbox().sentRetention(), limit);
      channels = ApiRuntime.channelRegistry(config);
    } catch (IllegalArgumentException e) {
      return fail(err, BAD_INPUT, e.getMessage());
    }
    try (Services services = Services.over(Database.open(config.database()))) {
      return check(config, services, scope, channels);
    } catch (DatabaseUnavailableException | DataAccessException e) {
      return fail(err, DATABASE_UNAVAILABLE, "the database failed: " + e.getMessage());
    }
  }

  private void refuseBadInput() {
    if (repair && (operator == null || operator.isBlank())) {
      throw new IllegalArgumentException("--repair needs --operator <your name> for the audit");
    }
    if (repair) {
      ApiKeys.operatorName(operator.trim(), "--operator");
    }
    if (repair && noTemporal) {
      throw new IllegalArgumentException("--repair needs Temporal: its repairs are signals");
    }
  }

  private int check(
      PayrelayConfig config, Services services, CheckScope scope, ChannelRegistry channels)
      throws JsonProcessingException {
    PaymentChecks checks = new PaymentChecks(services.database().dsl());
    Instant checkedAt = checks.now();
    List<PaymentFinding> found = new ArrayList<>(checks.run(scope));
    found.addAll(
        new UndecidedCallbackCheck(services.inbox(), services.payments(), channels).run(scope));
    found.addAll(quarantined(config, scope, checkedAt));
    Outcome outcome =
        noTemporal
            ? new Outcome(entries(found, null), null)
            : withWorkflows(config, services, scope, checks, found);
    List<CheckReport.Entry> entries = outcome.entries();
    int repaired = (int) entries.stream().filter(CheckReport.Entry::repairedNow).count();
    report(
        new CheckReport(
            checkedAt,
            olderThan.toSeconds(),
            entries,
            repaired,
            CheckReport.kindsAtLimit(entries, scope.limit())),
        outcome.temporalProblem());
    if (outcome.temporalProblem() != null) {
      return fail(
          spec.commandLine().getErr(),
          TEMPORAL_UNAVAILABLE,
          outcome.temporalProblem()
              + " (the workflows were not compared"
              + (repair ? " and nothing was repaired" : "")
              + "; --no-temporal skips them)");
    }
    return entries.stream().allMatch(CheckReport.Entry::repairedNow) ? CLEAN : FOUND;
  }

  /**
   * The messages in the consumers' quarantine queues; none, with a line on stderr, when the broker
   * cannot be read (the rest of the check still runs and decides the exit code).
   */
  private List<PaymentFinding> quarantined(PayrelayConfig config, CheckScope scope, Instant now) {
    try {
      return new QuarantineFindings(config).run(scope, now);
    } catch (java.io.IOException | RuntimeException e) {
      PrintWriter err = spec.commandLine().getErr();
      err.println(
          "payrelay check: the consumers' quarantine queues were not read (RabbitMQ: "
              + dev.payrelay.domain.failure.FailureText.of(e)
              + "); QUARANTINED_MESSAGE findings are missing");
      err.flush();
      return List.of();
    }
  }

  /** The findings with their repairs, and why Temporal could not list the workflows (or null). */
  private record Outcome(List<CheckReport.Entry> entries, String temporalProblem) {}

  /**
   * Adds to {@code found} the PAID payments whose workflow disagrees, then names or (with {@code
   * --repair}) applies each finding's repair; when Temporal cannot list, nothing is repaired.
   */
  private Outcome withWorkflows(
      PayrelayConfig config,
      Services services,
      CheckScope scope,
      PaymentChecks checks,
      List<PaymentFinding> found) {
    try (TemporalConnection temporal = TemporalConnection.client(config.temporal())) {
      String problem = null;
      try {
        found.addAll(new WorkflowStateCheck(checks, temporal.client()).run(scope));
        found.addAll(new ChannelQueryCheck(temporal.client()).run(scope));
      } catch (PaymentListingUnavailableException e) {
        problem = e.getMessage();
      }
      CheckRepairs repairs = repair && problem == null ? repairs(config, services, temporal) : null;
      return new Outcome(entries(found, repairs), problem);
    }
  }

  private CheckRepairs repairs(
      PayrelayConfig config, Services services, TemporalConnection temporal) {
    return new CheckRepairs(
        services,
        new WorkflowHandoff(
            temporal.client(),
            config.amqp().publishRetries(),
            config.temporal().channelQueries(),
            config.access().signalTokens().tokens(),
            services.outbox()),
        operator.trim());
  }

  /** Each finding with its repair: applied when {@code repairs} is given, else named. */
  private static List<CheckReport.Entry> entries(List<PaymentFinding> found, CheckRepairs repairs) {
    List<CheckReport.Entry> entries = new ArrayList<>();
    List<PaymentFinding> inKindOrder = new ArrayList<>(found);
    inKindOrder.sort(java.util.Comparator.comparing(PaymentFinding::kind));
    for (PaymentFinding f : inKindOrder) {
      CheckRepair r = CheckRepair.of(f);
      String repair =
          r == null ? CheckRepair.manual(f) : repairs == null ? r.name() : repairs.apply(f, r);
      entries.add(
          new CheckReport.Entry(f.paymentId(), f.kind().name(), f.reason(), f.eventId(), repair));
    }
    return entries;
  }

  private void report(CheckReport report, String temporalProblem) throws JsonProcessingException {
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(report.json());
    } else {
      String temporal =
          noTemporal ? "skipped (--no-temporal)" : temporalProblem == null ? "compared" : "FAILED";
      report.print(
          out,
          "older than "
              + Ages.of(olderThan.toSeconds())
              + ", within "
              + Ages.of(within.toSeconds())
              + "; workflows: "
              + temporal);
    }
    out.flush();
  }

  private static int fail(PrintWriter err, int code, String message) {
    err.println("payrelay check: " + message);
    err.flush();
    return code;
  }
}

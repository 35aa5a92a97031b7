package dev.payrelay.workflows;

import static org.assertj.core.api.Assertions.assertThat;

import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.testing.WorkflowReplayer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Replays every committed history in {@code src/test/resources/histories} with the workflow
 * implementation its WorkflowType names, so a change that would break running workflows
 * (non-determinism) fails here before it ships; such a change needs {@code Workflow.getVersion},
 * not a new recording.
 *
 * <p>The histories were recorded on the real Temporal dev server by the worker module's {@code
 * HistoryRecordingTest}, {@code ReconciliationHistoryRecordingTest} and {@code
 * RefundHistoryRecordingTest}, run on purpose for a new workflow shape (the command is in their
 * Javadoc). A file's name is its branch; keep names stable.
 */
class WorkflowHistoriesReplayTest {

  /**
   * The source folder, from the module's directory (Maven's working directory): unlike the test
   * classpath, it holds no copy of a history deleted since the last {@code clean}.
   */
  private static final Path FOLDER = Path.of("src", "test", "resources", "histories");

  /** Every branch with a recording; a lost file fails {@link #everyBranch_hasACommittedHistory}. */
  private static final List<String> PAYMENT_BRANCHES =
      List.of(
          "payment-happy-path",
          "payment-publish-retry-then-sent",
          "payment-publish-dead",
          "payment-dead-replayed",
          "payment-dead-discarded",
          "payment-resolve-accept-as-paid",
          // Recorded before the "operator-close-at-channel" version marker existed (CLOSE marked
          // CLOSED without asking the channel): proves such runs still replay through getVersion's
          // default branch. Not re-recordable.
          "payment-resolve-close",
          // After the "operator-close-at-channel" version marker: closed at the channel, then
          // CLOSED; refused because the channel says PAID, then accepted as paid.
          "payment-resolve-close-at-channel",
          "payment-resolve-close-refused-paid-at-channel",
          "payment-resolve-mark-for-refund",
          "payment-unknown-state-query-confirms",
          "payment-expired");

  /**
   * Every branch with a recording; a lost file fails {@link #everyBranch_hasACommittedHistory}.
   * Each payment branch is kept as recorded before the "ledger-first" version marker too (suffix
   * {@code --before-ledger-first}): runs in flight from then must still replay.
   */
  private static final List<String> BRANCHES =
      Stream.of(
              PAYMENT_BRANCHES.stream(),
              PAYMENT_BRANCHES.stream().map(b -> b + "--before-ledger-first"),
              // Each branch recorded again after the "local-first" version marker: its short steps
              // are local activities. The recordings from before it keep their regular activities
              // (suffix --before-local-first); the CLOSE recording predates both and stays as is.
              PAYMENT_BRANCHES.stream()
                  .filter(b -> !b.equals("payment-resolve-close"))
                  .map(b -> b + "--before-local-first"),
              // Each branch recorded again after the "settled-lifecycle" version marker (the watch
              // ends on a settled ledger, replaced timers cancelled, continue-as-new carries queued
              // signals, grants in rounds); every recording above predates it.
              Stream.concat(
                      PAYMENT_BRANCHES.stream().filter(b -> !b.equals("payment-resolve-close")),
                      Stream.of(
                          "payment-resolve-acknowledge-refund",
                          "payment-resolve-close-identity-first",
                          "payment-resolve-close-refused-unverified",
                          // New with it: paid 10.00 of 10.50, the expiry refused while the
                          // mismatch is open, then MARK_FOR_REFUND and EXPIRED.
                          "payment-underpaid-marked-for-refund-expired"))
                  .map(b -> b + "--with-settled-lifecycle"),
              // Version query-attention: 3 failed channel queries in a row raise NEEDS_ATTENTION
              // (PaymentAttention "channel-query"), the next answer clears it, then a query
              // confirms. Every recording above predates it: their queries answered, or failed
              // without the marker (its default branch).
              Stream.of("payment-channel-queries-failing--with-query-attention"),
              // Written by 2bd0119's code (Java test server, TestWorkflowEnvironment), before the
              // retry options were shared and grant()'s pause became its own method: a grant that
              // failed a whole round, paused, then committed; and a daily reconciliation started
              // by hand. Proves runs of that code replay after the refactor (no marker: the same
              // commands).
              Stream.of(
                  "payment-grant-round-paused-then-granted--with-settled-lifecycle",
                  "daily-reconciliation-started-by-hand"),
              // RefundWorkflow's first recordings (no version marker yet), one per branch:
              // submitted
              // and SUCCEEDED at once (full, partial); PENDING then a query; a submit timeout
              // (unknown) then a query; a lost submit, NOT_FOUND, one resubmission with the same
              // number; FAILED; pending past the threshold then acceptAsRefunded; NOT_FOUND after
              // the resubmission then markFailed; an operator's requery; a channel-made refund
              // settled at start (only publishes); a run continued as new and its last run.
              Stream.of(
                  "refund-submit-succeeded",
                  "refund-partial-submit-succeeded",
                  "refund-submit-pending-query-succeeded",
                  "refund-submit-unknown-query-succeeded",
                  "refund-not-found-resubmitted-succeeded",
                  "refund-failed",
                  "refund-attention-accepted-as-refunded",
                  "refund-not-found-again-marked-failed",
                  "refund-requery",
                  "refund-settled-at-start-publishes",
                  "refund-continued-as-new",
                  "refund-continued-run-settled",
                  // After the "refund-ledger-wakeup" version marker: a callback settles the
                  // refund while the run waits for its first query; its PaymentRefunded wakes the
                  // run, which reads the ledger instead of querying.
                  "refund-settled-by-callback-while-waiting",
                  // The same branch recorded by the code before that marker (the callback's
                  // PaymentRefunded arrives during the query's timer, which then fires and the
                  // query settles it): a run in flight then replays through the default branch.
                  "refund-settled-by-callback-while-waiting--before-ledger-wakeup"),
              Stream.of(
                  // One day reconciled in batches and cut into three continued runs (version
                  // batched-repairs): the pages; our side and a batch; the last batches and the
                  // end.
                  "reconciliation-batched-statement",
                  "reconciliation-batched-continued",
                  "reconciliation-batched-repairs",
                  // Recorded before the "batched-repairs" version marker existed (one run, a
                  // repair activity per item): replays through getVersion's default branch.
                  "reconciliation-with-repairs",
                  // A refund reported after the run ended FULFILLED starts a new run; the
                  // operator's ACKNOWLEDGE (version operator-acknowledge) ends it FULFILLED.
                  "payment-resolve-acknowledge-refund",
                  "payment-resolve-acknowledge-refund--before-local-first",
                  // Recorded before the "operator-acknowledge" marker existed: a raw resolve
                  // signal with ACKNOWLEDGE was refused as an unknown action (then ACCEPT_AS_PAID);
                  // replays through getVersion's default branch. Not re-recordable.
                  "payment-resolve-acknowledge--before-operator-acknowledge",
                  // After the "operator-close-identity-first" marker, in production mode: a signed
                  // CLOSE checked, then closed at the channel and CLOSED; a raw CLOSE without a
                  // token refused before the channel is asked, then a signed ACCEPT_AS_PAID. Every
                  // CLOSE recording above predates the marker and replays through its default.
                  "payment-resolve-close-identity-first",
                  "payment-resolve-close-refused-unverified",
                  // Recorded (on the Java test server) before the "channel-watch" version marker
                  // existed: proves such runs still replay through getVersion's default branch.
                  "payment-happy-path-before-channel-watch"),
              // Each branch HistoryRecordingTest records, and the payment runs of refunded
              // payments, recorded again after the "start-attributes" version marker: no start
              // upsert, PaymentState written once per workflow task. The CLOSE branches that ask
              // the channel could not be: a CLOSE of a payment with money received is refused by
              // the ledger before the channel is asked (78d29c2), so its recording test waits for
              // a ResolutionReject that never comes; close-identity-first covers a CLOSE closed
              // at the channel.
              Stream.concat(
                      PAYMENT_BRANCHES.stream()
                          .filter(
                              b ->
                                  !b.equals("payment-resolve-close")
                                      && !b.startsWith("payment-resolve-close-")),
                      Stream.of(
                          "payment-resolve-acknowledge-refund",
                          "payment-resolve-close-identity-first",
                          "payment-resolve-close-refused-unverified",
                          "payment-underpaid-marked-for-refund-expired",
                          "payment-channel-queries-failing",
                          "payment-refunded-settled-partially-refunded",
                          "payment-refunded-settled-refunded"))
                  .map(b -> b + "--with-start-attributes"))
          .flatMap(s -> s)
          .toList();

  private static final Map<String, Class<?>> IMPLEMENTATIONS =
      Map.of(
          "PaymentWorkflow", PaymentWorkflowImpl.class,
          "ReconciliationWorkflow", ReconciliationWorkflowImpl.class,
          "DailyReconciliationWorkflow", DailyReconciliationWorkflowImpl.class,
          "RefundWorkflow", RefundWorkflowImpl.class);

  /**
   * Temporal's default history-count warning limit ({@code limit.historyCount.warn}, 10,240
   * events): a branch past it would be logged by the server on every write.
   */
  private static final int HISTORY_EVENTS_WARN_LIMIT = 10_240;

  @ParameterizedTest(name = "{0}")
  @MethodSource("histories")
  void committedHistory_replaysWithoutNonDeterminism(Path file) throws Exception {
    WorkflowExecutionHistory history = read(file);

    WorkflowReplayer.replayWorkflowExecution(history, implementationOf(history));
  }

  @Test
  void everyBranch_hasACommittedHistory() {
    List<String> names = histories().map(WorkflowHistoriesReplayTest::branch).toList();

    assertThat(names).hasSizeGreaterThanOrEqualTo(BRANCHES.size()).containsAll(BRANCHES);
  }

  @Test
  void longestHistory_staysBelowTemporalsWarningLimit() {
    Path longest =
        histories().max(Comparator.comparingInt(WorkflowHistoriesReplayTest::events)).orElseThrow();
    int events = events(longest);
    System.out.printf("longest committed history: %s, %d events%n", branch(longest), events);

    assertThat(events).isLessThan(HISTORY_EVENTS_WARN_LIMIT);
  }

  /** The committed histories, by file name. */
  static Stream<Path> histories() {
    try (Stream<Path> files = Files.list(FOLDER)) {
      return files.filter(f -> f.toString().endsWith(".json")).sorted().toList().stream();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + FOLDER.toAbsolutePath(), e);
    }
  }

  private static Class<?> implementationOf(WorkflowExecutionHistory history) {
    String type =
        history
            .getEvents()
            .get(0)
            .getWorkflowExecutionStartedEventAttributes()
            .getWorkflowType()
            .getName();
    assertThat(IMPLEMENTATIONS).as("implementation of workflow type %s", type).containsKey(type);
    return IMPLEMENTATIONS.get(type);
  }

  private static WorkflowExecutionHistory read(Path file) {
    try {
      return WorkflowExecutionHistory.fromJson(Files.readString(file));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static int events(Path file) {
    return read(file).getEvents().size();
  }

  private static String branch(Path file) {
    String name = file.getFileName().toString();
    return name.substring(0, name.length() - ".json".length());
  }
}

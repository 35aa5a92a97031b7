package dev.payrelay.tools.bench;

import dev.payrelay.workflows.WorkflowIds;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionMetadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Reads the real histories of up to {@value #SIZE} of the run's payments from Temporal ({@code
 * GetWorkflowExecutionHistory}, every run of each payment's workflow id, as visibility lists them)
 * and counts their events and {@link BillableActions}: the bench's payments are each created and
 * paid once, so each one's histories are a happy path, and their count is its cost on Temporal
 * Cloud.
 */
final class HistorySample {

  /** At most this many payments are read, spread evenly over the run's. */
  static final int SIZE = 200;

  private final WorkflowClient client;

  HistorySample(WorkflowClient client) {
    this.client = client;
  }

  /** The figures of the histories of (a sample of) payments {@code paymentIds}. */
  BenchResult.Actions of(List<String> paymentIds) {
    List<BillableActions.Tally> payments = new ArrayList<>();
    int runs = 0;
    for (String paymentId : sample(paymentIds)) {
      List<List<HistoryEvent>> histories = histories(WorkflowIds.payment(paymentId));
      runs += histories.size();
      payments.add(
          histories.stream()
              .map(BillableActions::of)
              .reduce(BillableActions.Tally::plus)
              .orElse(new BillableActions.Tally(0, 0, 0, 0, 0, 0)));
    }
    return figures(payments, runs);
  }

  /** The figures of {@code payments}' tallies, one per payment, from {@code runs} runs. */
  static BenchResult.Actions figures(List<BillableActions.Tally> payments, int runs) {
    int[] actions = payments.stream().mapToInt(BillableActions.Tally::actions).sorted().toArray();
    int[] events = payments.stream().mapToInt(BillableActions.Tally::events).sorted().toArray();
    return new BenchResult.Actions(
        payments.size(),
        runs,
        median(actions),
        actions.length == 0 ? 0 : actions[actions.length - 1],
        median(events),
        events.length == 0 ? 0 : events[events.length - 1],
        (int) payments.stream().filter(t -> t.mostUpsertsInOneTask() > 1).count(),
        histogram(payments, BillableActions.Tally::actions),
        histogram(payments, BillableActions.Tally::events));
  }

  /** Up to {@link #SIZE} of {@code ids}, every k-th so the sample spans the whole window. */
  static List<String> sample(List<String> ids) {
    if (ids.size() <= SIZE) {
      return ids;
    }
    List<String> sample = new ArrayList<>(SIZE);
    for (int i = 0; i < SIZE; i++) {
      sample.add(ids.get((int) ((long) i * ids.size() / SIZE)));
    }
    return sample;
  }

  /**
   * The events of each run of {@code workflowId}; of its latest run alone when visibility does not
   * list it yet.
   */
  private List<List<HistoryEvent>> histories(String workflowId) {
    List<String> runIds =
        client
            .listExecutions("WorkflowId = '" + workflowId + "'")
            .map(WorkflowExecutionMetadata::getExecution)
            .map(execution -> execution.getRunId())
            .toList();
    if (runIds.isEmpty()) {
      return List.of(client.fetchHistory(workflowId).getEvents());
    }
    List<List<HistoryEvent>> histories = new ArrayList<>();
    for (String runId : runIds) {
      histories.add(client.fetchHistory(workflowId, runId).getEvents());
    }
    return histories;
  }

  private static double median(int[] sorted) {
    if (sorted.length == 0) {
      return 0;
    }
    int mid = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2.0;
  }

  private static List<BenchResult.Bucket> histogram(
      List<BillableActions.Tally> payments, Function<BillableActions.Tally, Integer> value) {
    Map<Integer, Integer> counts = new TreeMap<>();
    payments.forEach(t -> counts.merge(value.apply(t), 1, Integer::sum));
    return counts.entrySet().stream()
        .map(e -> new BenchResult.Bucket(e.getKey(), e.getValue()))
        .toList();
  }
}

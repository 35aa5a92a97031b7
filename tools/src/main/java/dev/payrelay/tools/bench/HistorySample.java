package dev.payrelay.tools.bench;

import dev.payrelay.workflows.OutboxEventSignal;
import dev.payrelay.workflows.PaymentWorkflow;
import dev.payrelay.workflows.WorkflowIds;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionMetadata;
import io.temporal.common.converter.DataConverter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Reads the real histories of up to {@value #SIZE} of the run's payments from Temporal ({@code
 * GetWorkflowExecutionHistory}, every run of each payment's workflow id, as visibility lists them)
 * and counts their events and {@link BillableActions}: the bench's payments are each created and
 * paid once, so each one's histories are a happy path, and their count is its cost on Temporal
 * Cloud. It also counts what issue 29 allows under load (at most 1% of payments with an extra
 * workflow task, no second run, no outbox event handed to one payment twice): each payment's runs,
 * its timed-out or failed workflow tasks, and its outbox-event signals that repeat an event id.
 */
final class HistorySample {

  /** At most this many payments are read, spread evenly over the run's. */
  static final int SIZE = 200;

  private final WorkflowClient client;

  HistorySample(WorkflowClient client) {
    this.client = client;
  }

  /**
   * One payment's histories, counted.
   *
   * @param paymentId the payment
   * @param tally its runs' {@link BillableActions} tallies added up
   * @param runs runs of its workflow id read; 0 when the server has none
   * @param duplicateHandOffs its {@link PaymentWorkflow#INTERNAL_OUTBOX_SIGNAL_NAME} signals (a
   *     signal-with-start's included) whose event id an earlier one of any of its runs carried
   */
  record Payment(String paymentId, BillableActions.Tally tally, int runs, int duplicateHandOffs) {

    /** Whether its workflow id ran more than once. */
    boolean secondRun() {
      return runs > 1;
    }

    /** Whether one of its runs took an extra workflow task (one timed out or failed). */
    boolean extraWorkflowTask() {
      return tally.timedOutOrFailedTasks() > 0;
    }
  }

  /**
   * Reads the histories of (a sample of) payments {@code paymentIds} and counts each payment's, in
   * the sample's order.
   *
   * @throws io.temporal.common.converter.DataConverterException when an outbox-event signal's
   *     payload does not decode with the client's data converter (e.g. encrypted with a key it
   *     lacks)
   */
  List<Payment> read(List<String> paymentIds) {
    DataConverter converter = client.getOptions().getDataConverter();
    List<Payment> payments = new ArrayList<>();
    for (String paymentId : sample(paymentIds)) {
      payments.add(payment(paymentId, histories(WorkflowIds.payment(paymentId)), converter));
    }
    return payments;
  }

  /**
   * Payment {@code paymentId} counted from {@code runs}, the events of each run of its workflow id;
   * {@code converter} decodes its outbox-event signals' {@link OutboxEventSignal} payloads (the
   * client's, so a codec's encrypted payloads decode too).
   */
  static Payment payment(String paymentId, List<List<HistoryEvent>> runs, DataConverter converter) {
    BillableActions.Tally tally =
        runs.stream()
            .map(BillableActions::of)
            .reduce(BillableActions.Tally::plus)
            .orElse(new BillableActions.Tally(0, 0, 0, 0, 0, 0));
    Set<String> handedOff = new HashSet<>();
    int duplicates = 0;
    for (List<HistoryEvent> run : runs) {
      for (HistoryEvent e : run) {
        if (e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED
            && e.getWorkflowExecutionSignaledEventAttributes()
                .getSignalName()
                .equals(PaymentWorkflow.INTERNAL_OUTBOX_SIGNAL_NAME)
            && !handedOff.add(eventId(e, converter))) {
          duplicates++;
        }
      }
    }
    return new Payment(paymentId, tally, runs.size(), duplicates);
  }

  /** The event id an outbox-event signal carries. */
  private static String eventId(HistoryEvent signal, DataConverter converter) {
    return converter
        .fromPayloads(
            0,
            Optional.of(signal.getWorkflowExecutionSignaledEventAttributes().getInput()),
            OutboxEventSignal.class,
            OutboxEventSignal.class)
        .eventId();
  }

  /**
   * The figures of {@code sample}, each payment counted once; payments without a run are counted in
   * {@link BenchResult.Actions#withoutRun()} alone.
   */
  static BenchResult.Actions figures(List<Payment> sample) {
    List<Payment> payments = sample.stream().filter(p -> p.runs() > 0).toList();
    List<BillableActions.Tally> tallies = payments.stream().map(Payment::tally).toList();
    int[] actions = tallies.stream().mapToInt(BillableActions.Tally::actions).sorted().toArray();
    int[] events = tallies.stream().mapToInt(BillableActions.Tally::events).sorted().toArray();
    return new BenchResult.Actions(
        payments.size(),
        payments.stream().mapToInt(Payment::runs).sum(),
        median(actions),
        actions.length == 0 ? 0 : actions[actions.length - 1],
        median(events),
        events.length == 0 ? 0 : events[events.length - 1],
        (int) tallies.stream().filter(t -> t.mostUpsertsInOneTask() > 1).count(),
        (int) payments.stream().filter(Payment::secondRun).count(),
        (int) payments.stream().filter(Payment::extraWorkflowTask).count(),
        payments.stream().mapToInt(Payment::duplicateHandOffs).sum(),
        (int) payments.stream().filter(p -> p.duplicateHandOffs() > 0).count(),
        histogram(tallies, BillableActions.Tally::actions),
        histogram(tallies, BillableActions.Tally::events),
        sample.size() - payments.size());
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
   * list it yet; none when the server has no run of it.
   */
  private List<List<HistoryEvent>> histories(String workflowId) {
    List<String> runIds =
        client
            .listExecutions("WorkflowId = '" + workflowId + "'")
            .map(WorkflowExecutionMetadata::getExecution)
            .map(execution -> execution.getRunId())
            .toList();
    if (runIds.isEmpty()) {
      try {
        return List.of(client.fetchHistory(workflowId).getEvents());
      } catch (StatusRuntimeException e) {
        if (e.getStatus().getCode() == Status.Code.NOT_FOUND) {
          // Never started: nothing delivered its events (the bench's api mode has no worker).
          return List.of();
        }
        throw e;
      }
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

package dev.payrelay.tools.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.payrelay.api.codec.AesGcmPayloadCodec;
import dev.payrelay.api.codec.PayloadKeyRing;
import dev.payrelay.workflows.EventOperatorSignal;
import dev.payrelay.workflows.OutboxEventSignal;
import dev.payrelay.workflows.PaymentWorkflow;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.api.history.v1.WorkflowExecutionSignaledEventAttributes;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.common.converter.DataConverter;
import io.temporal.common.converter.DataConverterException;
import io.temporal.common.converter.DefaultDataConverter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link HistorySample}'s per-payment figures (second runs, extra workflow tasks, duplicate
 * hand-offs) on synthetic histories whose signals carry payloads made by a data converter, and on a
 * history the real Temporal dev server recorded.
 */
class HistorySampleTest {

  private static final DataConverter JSON = DefaultDataConverter.newDefaultInstance();

  private static final Path HISTORIES =
      Path.of("..", "workflows", "src", "test", "resources", "histories");

  @Test
  void aSecondRun_anExtraTask_andDuplicateHandOffs_areEachCountedForTheirPaymentOnly() {
    // Clean: PaymentCreated then PaymentConfirmed, and an operator's replayEvent naming the first
    // event id again, which is no hand-off.
    HistorySample.Payment clean =
        HistorySample.payment(
            "clean",
            List.of(
                run(
                    handOff(JSON, "c1", "PaymentCreated", 1),
                    task(),
                    handOff(JSON, "c2", "PaymentConfirmed", 2),
                    signal(
                        JSON,
                        "replayEvent",
                        new EventOperatorSignal("c1", "ops", "fixed the exchange", "t1")),
                    task())),
            JSON);
    // The workflow ran twice, each run started by its own signal-with-start of a new event.
    HistorySample.Payment twoRuns =
        HistorySample.payment(
            "two-runs",
            List.of(
                run(handOff(JSON, "r1", "PaymentCreated", 1), task()),
                run(handOff(JSON, "r2", "PaymentConfirmed", 2), task())),
            JSON);
    // The first workflow task timed out on the sticky queue and was scheduled again.
    HistorySample.Payment timedOut =
        HistorySample.payment(
            "timed-out",
            List.of(
                run(
                    handOff(JSON, "t1", "PaymentCreated", 1),
                    List.of(
                        event(EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED),
                        event(EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED),
                        event(EventType.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT)),
                    task())),
            JSON);
    // PaymentCreated and PaymentConfirmed each handed off twice: two duplicates, one payment.
    HistorySample.Payment twice =
        HistorySample.payment(
            "twice",
            List.of(
                run(
                    handOff(JSON, "d1", "PaymentCreated", 1),
                    task(),
                    handOff(JSON, "d2", "PaymentConfirmed", 2),
                    handOff(JSON, "d2", "PaymentConfirmed", 2),
                    handOff(JSON, "d1", "PaymentCreated", 1),
                    task())),
            JSON);

    BenchResult.Actions a = HistorySample.figures(List.of(clean, twoRuns, timedOut, twice));

    assertThat(a.sampled()).isEqualTo(4);
    assertThat(a.runs()).isEqualTo(5);
    assertThat(a.paymentsWithSecondRun()).isEqualTo(1);
    assertThat(a.paymentsWithExtraWorkflowTask()).isEqualTo(1);
    assertThat(a.duplicateHandOffs()).isEqualTo(2);
    assertThat(a.paymentsWithDuplicateHandOff()).isEqualTo(1);
    assertThat(List.of(clean, twoRuns, timedOut, twice))
        .extracting(
            HistorySample.Payment::secondRun,
            HistorySample.Payment::extraWorkflowTask,
            HistorySample.Payment::duplicateHandOffs)
        .containsExactly(
            tuple(false, false, 0),
            tuple(true, false, 0),
            tuple(false, true, 0),
            tuple(false, false, 2));
    assertThat(HistorySample.figures(List.of(clean)))
        .extracting(
            BenchResult.Actions::paymentsWithSecondRun,
            BenchResult.Actions::paymentsWithExtraWorkflowTask,
            BenchResult.Actions::duplicateHandOffs,
            BenchResult.Actions::paymentsWithDuplicateHandOff)
        .containsExactly(0, 0, 0, 0);
  }

  @Test
  void aPaymentWithoutARun_isCountedApart_andInNoOtherFigure() {
    HistorySample.Payment clean =
        HistorySample.payment(
            "clean", List.of(run(handOff(JSON, "c1", "PaymentCreated", 1), task())), JSON);
    HistorySample.Payment never = HistorySample.payment("never", List.of(), JSON);

    BenchResult.Actions a = HistorySample.figures(List.of(clean, never, never));

    assertThat(a.withoutRun()).isEqualTo(2);
    assertThat(a.sampled()).isEqualTo(1);
    assertThat(a.runs()).isEqualTo(1);
    assertThat(a.actionsHistogram()).extracting(BenchResult.Bucket::payments).containsExactly(1);
    assertThat(a.actionsMedian()).isEqualTo(clean.tally().actions());
    assertThat(HistorySample.figures(List.of(clean)).withoutRun()).isZero();
  }

  @Test
  void anEventSignalledToTheFirstRun_andStartingTheSecond_isADuplicateHandOff() {
    HistorySample.Payment p =
        HistorySample.payment(
            "restarted",
            List.of(
                run(handOff(JSON, "e1", "PaymentCreated", 1), task()),
                run(handOff(JSON, "e1", "PaymentCreated", 1), task())),
            JSON);

    assertThat(p.secondRun()).isTrue();
    assertThat(p.duplicateHandOffs()).isEqualTo(1);
  }

  @Test
  void encryptedHandOffs_decodeWithTheClientsCodec() {
    byte[] key = new byte[PayloadKeyRing.KEY_BYTES];
    new SecureRandom().nextBytes(key);
    DataConverter encrypted =
        AesGcmPayloadCodec.dataConverter(new PayloadKeyRing("k1", key, Map.of()));
    List<List<HistoryEvent>> runs =
        List.of(
            run(
                handOff(encrypted, "e1", "PaymentCreated", 1),
                task(),
                handOff(encrypted, "e1", "PaymentCreated", 1),
                task()));

    assertThat(HistorySample.payment("encrypted", runs, encrypted).duplicateHandOffs())
        .isEqualTo(1);
    assertThatThrownBy(() -> HistorySample.payment("encrypted", runs, JSON))
        .isInstanceOf(DataConverterException.class);
  }

  @Test
  void aRecordedHappyPath_hasNoDuplicateHandOff_untilItsPaymentConfirmedIsSignalledAgain()
      throws Exception {
    List<HistoryEvent> history =
        WorkflowExecutionHistory.fromJson(
                Files.readString(
                    HISTORIES.resolve("payment-happy-path--with-settled-lifecycle.json")))
            .getEvents();
    List<HistoryEvent> confirmedTwice = new ArrayList<>(history);
    HistoryEvent confirmed = history.get(13);
    assertThat(confirmed.getEventType())
        .isEqualTo(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED);
    confirmedTwice.add(14, confirmed);

    assertThat(HistorySample.payment("happy", List.of(history), JSON))
        .extracting(
            HistorySample.Payment::secondRun,
            HistorySample.Payment::extraWorkflowTask,
            HistorySample.Payment::duplicateHandOffs)
        .containsExactly(false, false, 0);
    assertThat(HistorySample.payment("happy", List.of(confirmedTwice), JSON).duplicateHandOffs())
        .isEqualTo(1);
  }

  /** A run started by a signal-with-start (the first of {@code parts}), then the other parts. */
  @SafeVarargs
  private static List<HistoryEvent> run(List<HistoryEvent>... parts) {
    List<HistoryEvent> events = new ArrayList<>();
    events.add(event(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED));
    for (List<HistoryEvent> part : parts) {
      events.addAll(part);
    }
    return events;
  }

  /** A workflow task scheduled, started and completed. */
  private static List<HistoryEvent> task() {
    return List.of(
        event(EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED),
        event(EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED),
        event(EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED));
  }

  /** The dispatcher's {@code onOutboxEvent} signal of outbox event {@code eventId}. */
  private static List<HistoryEvent> handOff(
      DataConverter converter, String eventId, String eventType, long seq) {
    return signal(
        converter,
        PaymentWorkflow.INTERNAL_OUTBOX_SIGNAL_NAME,
        new OutboxEventSignal(eventId, eventType, seq));
  }

  /** Signal {@code name} with {@code argument}, its payload made by {@code converter}. */
  private static List<HistoryEvent> signal(DataConverter converter, String name, Object argument) {
    return List.of(
        HistoryEvent.newBuilder()
            .setEventType(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED)
            .setWorkflowExecutionSignaledEventAttributes(
                WorkflowExecutionSignaledEventAttributes.newBuilder()
                    .setSignalName(name)
                    .setInput(converter.toPayloads(argument).orElseThrow()))
            .build());
  }

  private static HistoryEvent event(EventType type) {
    return HistoryEvent.newBuilder().setEventType(type).build();
  }
}

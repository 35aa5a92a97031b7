package dev.payrelay.workflows;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;
import static org.mockito.Mockito.withSettings;

import dev.payrelay.workflows.activities.FinishRunRequest;
import dev.payrelay.workflows.activities.OurSideResult;
import dev.payrelay.workflows.activities.PageResult;
import dev.payrelay.workflows.activities.ReconcilePageRequest;
import dev.payrelay.workflows.activities.ReconciliationActivities;
import dev.payrelay.workflows.activities.ReconciliationDay;
import dev.payrelay.workflows.activities.RepairRequest;
import dev.payrelay.workflows.activities.RepairResult;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowOptions;
import io.temporal.failure.ApplicationFailure;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.testing.TestWorkflowExtension;
import io.temporal.worker.Worker;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.mockito.InOrder;

class ReconciliationWorkflowImplTest {

  private static final LocalDate DAY = LocalDate.parse("2026-03-11");
  private static final ReconciliationInput INPUT =
      new ReconciliationInput("sandbox", DAY.toString());
  private static final ReconciliationDay RECON_DAY = new ReconciliationDay("sandbox", "2026-03-11");

  @RegisterExtension
  static final TestWorkflowExtension testWorkflow =
      TestWorkflowExtension.newBuilder()
          .registerWorkflowImplementationTypes(ReconciliationWorkflowImpl.class)
          .setDoNotStart(true)
          .build();

  private final ReconciliationActivities activities =
      mock(ReconciliationActivities.class, withSettings().withoutAnnotations());

  private WorkflowClient client;
  private WorkflowOptions options;

  @BeforeEach
  void setUp(
      TestWorkflowEnvironment env, WorkflowClient client, WorkflowOptions options, Worker worker) {
    this.client = client;
    this.options = options;
    worker.registerActivitiesImplementations(activities);
    env.start();
    when(activities.repair(any()))
        .thenAnswer(
            call -> {
              long id = call.<RepairRequest>getArgument(0).itemId();
              return new RepairResult(id, "REVIEW", "DONE", "recorded");
            });
    when(activities.finishRun(any())).thenAnswer(call -> summary(call.getArgument(0)));
  }

  @Test
  void pagesThenOurSide_repairEachOpenItemOnce_thenFinishCompletedWithTheCounts() {
    when(page(null)).thenReturn(new PageResult("p2", 100, List.of(1L, 2L)));
    when(page("p2")).thenReturn(new PageResult(null, 50, List.of(2L, 3L)));
    when(activities.ourSide(RECON_DAY)).thenReturn(new OurSideResult(150, List.of(4L)));

    ReconciliationSummary result = start().run(INPUT);

    assertThat(result.status()).isEqualTo("COMPLETED");
    assertThat(result.pagesRead()).isEqualTo(2);
    assertThat(result.linesRead()).isEqualTo(150);
    InOrder order = inOrder(activities);
    order.verify(activities).startRun(RECON_DAY);
    order.verify(activities).reconcilePage(new ReconcilePageRequest("sandbox", "2026-03-11", null));
    order.verify(activities).reconcilePage(new ReconcilePageRequest("sandbox", "2026-03-11", "p2"));
    order.verify(activities).ourSide(RECON_DAY);
    for (long id = 1; id <= 4; id++) {
      order.verify(activities).repair(new RepairRequest(id));
    }
    order
        .verify(activities)
        .finishRun(new FinishRunRequest("sandbox", "2026-03-11", "COMPLETED", 2, 150, null));
    verify(activities, times(4)).repair(any());
  }

  @Test
  void secondRunOfTheSameId_afterTheFirstCompleted_findsNoOpenItems_andRepairsNothing() {
    when(page(null))
        .thenReturn(new PageResult(null, 3, List.of(7L)))
        .thenReturn(new PageResult(null, 3, List.of()));
    when(activities.ourSide(RECON_DAY))
        .thenReturn(new OurSideResult(3, List.of(8L)))
        .thenReturn(new OurSideResult(3, List.of()));

    ReconciliationSummary first = start().run(INPUT);
    ReconciliationSummary second = start().run(INPUT);

    assertThat(first.status()).isEqualTo("COMPLETED");
    assertThat(second.status()).isEqualTo("COMPLETED");
    verify(activities, times(2)).startRun(RECON_DAY);
    verify(activities).repair(new RepairRequest(7));
    verify(activities).repair(new RepairRequest(8));
    verify(activities, times(2)).repair(any());
  }

  @Test
  void refusedPage_recordsTheRunFailed_andFailsWithoutRepairs() {
    when(page(null)).thenReturn(new PageResult("p2", 100, List.of(1L)));
    when(page("p2"))
        .thenThrow(
            ApplicationFailure.newNonRetryableFailure("line 3 malformed", "CHANNEL_REFUSED"));

    WorkflowFailedException e =
        catchThrowableOfType(WorkflowFailedException.class, () -> start().run(INPUT));

    assertThat(e).isNotNull();
    assertThat(e.getCause()).isInstanceOf(ApplicationFailure.class);
    assertThat(((ApplicationFailure) e.getCause()).getType()).isEqualTo("STATEMENT_UNREADABLE");
    verify(activities)
        .finishRun(
            new FinishRunRequest(
                "sandbox", "2026-03-11", "FAILED", 1, 100, "CHANNEL_REFUSED: line 3 malformed"));
    verify(activities, never()).repair(any());
    verify(activities, times(2)).reconcilePage(any());
    verify(activities, never()).ourSide(any());
  }

  @Test
  void repairThatKeepsFailing_isRetriedBoundedly_andTheOthersStillRun() {
    when(page(null)).thenReturn(new PageResult(null, 2, List.of(1L, 2L)));
    when(activities.ourSide(RECON_DAY)).thenReturn(new OurSideResult(2, List.of()));
    when(activities.repair(new RepairRequest(1)))
        .thenThrow(ApplicationFailure.newFailure("channel down", "CHANNEL_UNAVAILABLE"));

    ReconciliationSummary result = start().run(INPUT);

    assertThat(result.status()).isEqualTo("COMPLETED");
    assertThat(result.lastError()).isEqualTo("1 of 2 repairs failed");
    verify(activities, times(5)).repair(new RepairRequest(1));
    verify(activities, times(1)).repair(new RepairRequest(2));
  }

  @Test
  void dateThatIsNotIso_failsAtOnce_withoutTouchingTheChannel() {
    WorkflowFailedException e =
        catchThrowableOfType(
            WorkflowFailedException.class,
            () -> start().run(new ReconciliationInput("sandbox", "11/03/2026")));

    assertThat(e).isNotNull();
    assertThat(((ApplicationFailure) e.getCause()).getType()).isEqualTo("INVALID_REQUEST");
    verifyNoInteractions(activities);
  }

  @Test
  void workflowId_isReconChannelDate() {
    assertThat(WorkflowIds.reconciliation("sandbox", DAY)).isEqualTo("recon-sandbox-2026-03-11");
  }

  private ReconciliationWorkflow start() {
    return client.newWorkflowStub(
        ReconciliationWorkflow.class,
        WorkflowOptions.newBuilder(options)
            .setWorkflowId(WorkflowIds.reconciliation("sandbox", DAY))
            .build());
  }

  private PageResult page(String token) {
    return activities.reconcilePage(new ReconcilePageRequest("sandbox", "2026-03-11", token));
  }

  private static ReconciliationSummary summary(FinishRunRequest r) {
    return new ReconciliationSummary(
        r.channel(),
        r.date(),
        r.status(),
        1,
        r.pagesRead(),
        r.linesRead(),
        Map.of(),
        Map.of(),
        r.error());
  }
}

package dev.payrelay.workflows;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;
import static org.mockito.Mockito.withSettings;

import dev.payrelay.workflows.activities.FinishRunRequest;
import dev.payrelay.workflows.activities.OurSideResult;
import dev.payrelay.workflows.activities.PageResult;
import dev.payrelay.workflows.activities.ReconcilePageRequest;
import dev.payrelay.workflows.activities.ReconciliationActivities;
import dev.payrelay.workflows.activities.RepairResult;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.testing.TestWorkflowExtension;
import io.temporal.testing.WorkflowReplayer;
import io.temporal.worker.Worker;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Replays a committed history of {@link ReconciliationWorkflowImpl} (two pages, our side, two
 * repairs) so a non-deterministic change fails before it ships. Record a new one only for a new
 * workflow shape: {@code ./mvnw -pl workflows -am verify -Dpayrelay.recordHistories=true}.
 */
class ReconciliationWorkflowReplayTest {

  private static final String TWO_PAGES = "histories/reconciliation-workflow-two-pages.json";
  private static final LocalDate DAY = LocalDate.parse("2026-03-11");

  @RegisterExtension
  static final TestWorkflowExtension testWorkflow =
      TestWorkflowExtension.newBuilder()
          .registerWorkflowImplementationTypes(ReconciliationWorkflowImpl.class)
          .setDoNotStart(true)
          .build();

  @Test
  void committedTwoPageHistory_replaysWithoutNonDeterminism() throws Exception {
    String history;
    try (InputStream in = getClass().getClassLoader().getResourceAsStream(TWO_PAGES)) {
      assertThat(in).as("committed history %s", TWO_PAGES).isNotNull();
      history = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertThat(history).contains("ReconReconcilePage").contains("ReconRepair");

    WorkflowReplayer.replayWorkflowExecution(history, ReconciliationWorkflowImpl.class);
  }

  @Test
  @EnabledIfSystemProperty(named = "payrelay.recordHistories", matches = "true")
  void recordTwoPageHistory(
      TestWorkflowEnvironment env, WorkflowClient client, WorkflowOptions options, Worker worker)
      throws IOException {
    ReconciliationActivities activities =
        mock(ReconciliationActivities.class, withSettings().withoutAnnotations());
    when(activities.reconcilePage(new ReconcilePageRequest("sandbox", DAY.toString(), null)))
        .thenReturn(new PageResult("p2", 100, List.of(1L)));
    when(activities.reconcilePage(new ReconcilePageRequest("sandbox", DAY.toString(), "p2")))
        .thenReturn(new PageResult(null, 20, List.of()));
    when(activities.ourSide(any())).thenReturn(new OurSideResult(120, List.of(2L)));
    when(activities.repair(any())).thenReturn(new RepairResult(1, "REVIEW", "DONE", "recorded"));
    when(activities.finishRun(any()))
        .thenAnswer(
            call -> {
              FinishRunRequest r = call.getArgument(0);
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
            });
    worker.registerActivitiesImplementations(activities);
    env.start();
    String id = WorkflowIds.reconciliation("sandbox", DAY);
    client
        .newWorkflowStub(
            ReconciliationWorkflow.class,
            WorkflowOptions.newBuilder(options).setWorkflowId(id).build())
        .run(new ReconciliationInput("sandbox", DAY.toString()));

    Path target = Path.of("src/test/resources").resolve(TWO_PAGES);
    Files.createDirectories(target.getParent());
    Files.writeString(target, client.fetchHistory(id).toJson(true));
  }
}

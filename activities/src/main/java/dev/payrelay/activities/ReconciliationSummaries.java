package dev.payrelay.activities;

import dev.payrelay.ledger.reconciliation.ReconciliationReport;
import dev.payrelay.ledger.reconciliation.ReconciliationRun;
import dev.payrelay.workflows.ReconciliationSummary;
import java.util.Map;
import java.util.stream.Collectors;

/** Maps the store's report of a day to the workflow's {@link ReconciliationSummary}. */
final class ReconciliationSummaries {

  private ReconciliationSummaries() {}

  /** The summary of a day whose run was started; kinds and statuses by name. */
  static ReconciliationSummary of(ReconciliationReport report, String date) {
    ReconciliationRun run = report.run();
    return new ReconciliationSummary(
        run.channel(),
        date,
        run.status().name(),
        run.runs(),
        run.pagesRead(),
        run.linesRead(),
        names(report.itemsByKind()),
        names(report.itemsByRepairStatus()),
        run.lastError());
  }

  private static Map<String, Integer> names(Map<? extends Enum<?>, Integer> counts) {
    return counts.entrySet().stream()
        .collect(Collectors.toUnmodifiableMap(e -> e.getKey().name(), Map.Entry::getValue));
  }
}

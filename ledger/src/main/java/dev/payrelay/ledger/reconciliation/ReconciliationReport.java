package dev.payrelay.ledger.reconciliation;

import dev.payrelay.ledger.checks.RepairStatus;
import java.util.Map;

/**
 * A day's reconciliation at a glance, for the admin API and CLI.
 *
 * @param run the latest run, or null if the day was never reconciled
 * @param itemsByKind the day's items per kind (kinds without items are absent)
 * @param itemsByRepairStatus the day's items per repair status (statuses without items absent)
 */
public record ReconciliationReport(
    ReconciliationRun run,
    Map<ReconciliationKind, Integer> itemsByKind,
    Map<RepairStatus, Integer> itemsByRepairStatus) {

  /** Copies the maps. */
  public ReconciliationReport {
    itemsByKind = Map.copyOf(itemsByKind);
    itemsByRepairStatus = Map.copyOf(itemsByRepairStatus);
  }
}

package dev.payrelay.workflows;

import java.util.Map;

/**
 * A day's reconciliation at a glance: the result of {@link ReconciliationWorkflow} and the shape
 * the admin API and CLI show.
 *
 * @param channel the channel name
 * @param date the statement day, ISO-8601
 * @param status the run's status: {@code RUNNING}, {@code COMPLETED} or {@code FAILED}
 * @param runs how many runs of this day started
 * @param pagesRead statement pages the latest run read
 * @param linesRead statement lines the latest run read
 * @param itemsByKind the day's items per kind (e.g. {@code PAID_NOT_CONFIRMED}); absent kinds 0
 * @param itemsByRepairStatus the day's items per repair status ({@code PENDING}, {@code DONE},
 *     {@code FAILED}); absent statuses 0
 * @param lastError why the latest run FAILED or which repairs failed, else null
 */
public record ReconciliationSummary(
    String channel,
    String date,
    String status,
    int runs,
    int pagesRead,
    long linesRead,
    Map<String, Integer> itemsByKind,
    Map<String, Integer> itemsByRepairStatus,
    String lastError) {

  /** Copies the maps. */
  public ReconciliationSummary {
    itemsByKind = Map.copyOf(itemsByKind);
    itemsByRepairStatus = Map.copyOf(itemsByRepairStatus);
  }
}

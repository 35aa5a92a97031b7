package dev.payrelay.ledger.reconciliation;

import java.time.Instant;
import java.time.LocalDate;

/**
 * A {@code reconciliation_run} row: the latest run of one channel's statement day.
 *
 * @param channel the channel
 * @param statementDate the statement day
 * @param status RUNNING, COMPLETED or FAILED
 * @param runs how many runs of this day started (a re-run counts; a retried start does not)
 * @param pagesRead statement pages the latest run read
 * @param linesRead statement lines the latest run read
 * @param lastError why the latest run FAILED, else null
 * @param startedAt when the latest run started (database clock)
 * @param finishedAt when it finished, or null while RUNNING
 */
public record ReconciliationRun(
    String channel,
    LocalDate statementDate,
    RunStatus status,
    int runs,
    int pagesRead,
    long linesRead,
    String lastError,
    Instant startedAt,
    Instant finishedAt) {}

package dev.payrelay.api.admin;

import dev.payrelay.api.BadRequestException;
import dev.payrelay.api.NotFoundException;
import dev.payrelay.api.ServiceUnavailableException;
import dev.payrelay.api.auth.ApiKey;
import dev.payrelay.domain.channel.ChannelRegistry;
import dev.payrelay.ledger.reconciliation.Reconciliation;
import dev.payrelay.ledger.reconciliation.ReconciliationReport;
import dev.payrelay.temporal.client.ReconciliationStarts;
import dev.payrelay.workflows.WorkflowIds;
import io.grpc.StatusRuntimeException;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowServiceException;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;

/**
 * On-demand reconciliation for the admin API and the CLI: start {@code recon-{channel}-{date}} for
 * any day (re-runs are idempotent) and read a day's summary from our tables.
 */
public final class ReconciliationAdmin {

  /**
   * Answer of a start request.
   *
   * @param workflowId the day's workflow
   * @param started false when a run of that day was already running
   */
  public record StartAnswer(String workflowId, boolean started) {}

  private static final DateTimeFormatter STRICT_DATE =
      DateTimeFormatter.ofPattern("uuuu-MM-dd").withResolverStyle(ResolverStyle.STRICT);

  private final Reconciliation reconciliation;
  private final ChannelRegistry channels;
  private final WorkflowClient temporal;

  /** Starts through {@code temporal}, reads through {@code reconciliation}. */
  public ReconciliationAdmin(
      Reconciliation reconciliation, ChannelRegistry channels, WorkflowClient temporal) {
    this.reconciliation = reconciliation;
    this.channels = channels;
    this.temporal = temporal;
  }

  /**
   * Starts (or re-runs) the day's reconciliation for {@code caller}, audited in {@code
   * operator_action} under the key's operator.
   *
   * @param reason why, as the operator gives it (null or blank: "on demand")
   * @throws BadRequestException for an unknown channel or a date that is not yyyy-MM-dd
   * @throws ServiceUnavailableException (503 with Retry-After) when Temporal does not take the
   *     start; nothing is audited, the same request may be sent again
   */
  public StartAnswer start(String channel, String date, String reason, ApiKey caller) {
    LocalDate day = validate(channel, date);
    boolean started;
    try {
      started = ReconciliationStarts.start(temporal, channel, day, true);
    } catch (WorkflowServiceException | StatusRuntimeException e) {
      throw new ServiceUnavailableException(
          "Temporal unavailable: the reconciliation of "
              + channel
              + " for "
              + day
              + " was not started ("
              + reasonOf(e)
              + "); send it again when Temporal is back",
          e);
    }
    String workflowId = WorkflowIds.reconciliation(channel, day);
    reconciliation.auditStart(
        workflowId,
        caller.operator(),
        reason == null || reason.isBlank() ? "on demand" : reason,
        started);
    return new StartAnswer(workflowId, started);
  }

  /**
   * The day's latest run with its counts per kind and repair status.
   *
   * @throws NotFoundException if that day was never reconciled
   */
  public ReconciliationReport summary(String channel, String date) {
    LocalDate day = validate(channel, date);
    ReconciliationReport report = reconciliation.summary(channel, day);
    if (report.run() == null) {
      throw new NotFoundException("no reconciliation of " + channel + " for " + day);
    }
    return report;
  }

  /**
   * Why Temporal refused, in the server's or the transport's own words: the first gRPC status in
   * the causes (e.g. {@code UNAVAILABLE: io exception}), else the innermost cause.
   */
  private static String reasonOf(Throwable e) {
    Throwable root = e;
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof StatusRuntimeException grpc) {
        return grpc.getMessage();
      }
      root = t;
      if (t.getCause() == t) {
        break;
      }
    }
    return root.toString();
  }

  private LocalDate validate(String channel, String date) {
    if (channel == null || channels.find(channel).isEmpty()) {
      throw new BadRequestException("unknown channel: " + channel);
    }
    LocalDate day;
    try {
      day = LocalDate.parse(String.valueOf(date), STRICT_DATE);
    } catch (DateTimeParseException e) {
      throw new BadRequestException("date must be yyyy-MM-dd, got " + date);
    }
    // A statement day is reconciled once it has begun; a future day has no statement yet.
    if (day.isAfter(LocalDate.now(ZoneOffset.UTC)) || day.getYear() < 2000) {
      throw new BadRequestException("date must be between 2000-01-01 and today (UTC), got " + date);
    }
    return day;
  }
}

package dev.payrelay.app.jobs;

import dev.payrelay.workflows.DailyReconciliationInput;
import dev.payrelay.workflows.DailyReconciliationWorkflow;
import dev.payrelay.workflows.TaskQueues;
import dev.payrelay.workflows.WorkflowIds;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.enums.v1.ScheduleOverlapPolicy;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.schedules.Schedule;
import io.temporal.client.schedules.ScheduleActionStartWorkflow;
import io.temporal.client.schedules.ScheduleAlreadyRunningException;
import io.temporal.client.schedules.ScheduleClient;
import io.temporal.client.schedules.ScheduleIntervalSpec;
import io.temporal.client.schedules.ScheduleOptions;
import io.temporal.client.schedules.SchedulePolicy;
import io.temporal.client.schedules.ScheduleSpec;
import io.temporal.client.schedules.ScheduleUpdate;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daily reconciliation as Temporal Schedules, one per channel, id {@code recon-daily-{channel}}
 * ({@link WorkflowIds#dailyReconciliation}): every hour on the hour (UTC) it starts a {@link
 * DailyReconciliationWorkflow}, which starts {@code recon-{channel}-{yesterday}} by the daily
 * rules. Kept by every worker at start: created when missing (and triggered once, so yesterday is
 * reconciled at once), otherwise updated to this definition, keeping its state (an operator's pause
 * and its note survive a restart).
 */
public final class ReconciliationSchedule {

  /** Hourly, like the tick it replaces: a failed day is tried again within the hour. */
  static final Duration EVERY = Duration.ofHours(1);

  /**
   * Actions missed in the last two days (the server was down) still run when it returns, each for
   * the day before its own scheduled hour, so an outage of up to two days misses no day; older ones
   * are dropped (start those days on demand, or backfill the Schedule).
   */
  static final Duration CATCH_UP_WINDOW = Duration.ofDays(2);

  /**
   * Missed or overlapping actions run one after another, never together: each is short and
   * idempotent, and in order each finds the previous one's start.
   */
  static final ScheduleOverlapPolicy OVERLAP =
      ScheduleOverlapPolicy.SCHEDULE_OVERLAP_POLICY_BUFFER_ALL;

  /**
   * An action is one activity with about 8 minutes of retries; a lost one ends well inside its hour
   * and never holds up the buffered actions behind it.
   */
  static final Duration ACTION_TIMEOUT = Duration.ofMinutes(30);

  /** Memo key of the Schedule's description in words, for whoever finds it on the server. */
  static final String DESCRIPTION_MEMO = "description";

  private static final Logger log = LoggerFactory.getLogger(ReconciliationSchedule.class);

  private final ScheduleClient schedules;
  private final List<String> channels;

  /** Schedules for {@code channels} through {@code schedules} (the worker's namespace). */
  public ReconciliationSchedule(ScheduleClient schedules, List<String> channels) {
    this.schedules = schedules;
    this.channels = List.copyOf(channels);
  }

  /**
   * Creates each channel's Schedule, or updates the existing one to this definition. Idempotent:
   * any number of workers may call it, at once or one after another; there stays one Schedule per
   * channel.
   *
   * @return the Schedule ids
   * @throws SchedulesUnsupportedException when the server answers UNIMPLEMENTED (e.g. the Java test
   *     server)
   * @throws io.temporal.client.schedules.ScheduleException when the server refuses otherwise
   */
  public List<String> ensure() {
    try {
      return channels.stream().map(this::ensure).toList();
    } catch (RuntimeException e) {
      if (unimplemented(e)) {
        throw new SchedulesUnsupportedException(e);
      }
      throw e;
    }
  }

  private String ensure(String channel) {
    String id = WorkflowIds.dailyReconciliation(channel);
    Schedule wanted = schedule(channel);
    try {
      schedules.createSchedule(
          id,
          wanted,
          ScheduleOptions.newBuilder()
              .setTriggerImmediately(true)
              .setMemo(Map.of(DESCRIPTION_MEMO, description(channel)))
              .build());
      log.info("created Schedule {} and triggered it once", id);
    } catch (ScheduleAlreadyRunningException exists) {
      schedules
          .getHandle(id)
          .update(
              current ->
                  new ScheduleUpdate(
                      Schedule.newBuilder(wanted)
                          .setState(current.getDescription().getSchedule().getState())
                          .build()));
      log.info("updated Schedule {}", id);
    }
    return id;
  }

  /** The channel's Schedule as payrelay wants it (spec, action, policy; no state). */
  static Schedule schedule(String channel) {
    return Schedule.newBuilder()
        .setSpec(
            ScheduleSpec.newBuilder()
                .setIntervals(List.of(new ScheduleIntervalSpec(EVERY)))
                .build())
        .setAction(
            ScheduleActionStartWorkflow.newBuilder()
                .setWorkflowType(DailyReconciliationWorkflow.class)
                .setArguments(new DailyReconciliationInput(channel))
                .setOptions(
                    WorkflowOptions.newBuilder()
                        .setWorkflowId(WorkflowIds.dailyReconciliation(channel))
                        .setTaskQueue(TaskQueues.RECONCILIATION)
                        .setWorkflowExecutionTimeout(ACTION_TIMEOUT)
                        .build())
                .build())
        .setPolicy(
            SchedulePolicy.newBuilder()
                .setOverlap(OVERLAP)
                .setCatchupWindow(CATCH_UP_WINDOW)
                .setPauseOnFailure(false)
                .build())
        .build();
  }

  /** What the Schedule does, in words, for its memo. */
  static String description(String channel) {
    return "payrelay daily reconciliation of "
        + channel
        + ": every hour (UTC) starts the reconciliation of yesterday, recon-"
        + channel
        + "-{yyyy-MM-dd}, unless it is running or completed (a FAILED day, or one completed before"
        + " it ended, runs again). Kept by the payrelay worker at start; pause it to stop the daily"
        + " runs.";
  }

  private static boolean unimplemented(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof StatusRuntimeException s
          && s.getStatus().getCode() == Status.Code.UNIMPLEMENTED) {
        return true;
      }
    }
    return false;
  }

  /** The server does not implement Schedules; the cause is its answer. */
  public static final class SchedulesUnsupportedException extends RuntimeException {
    SchedulesUnsupportedException(Throwable cause) {
      super("Temporal Schedules are not implemented by this server", cause);
    }
  }
}

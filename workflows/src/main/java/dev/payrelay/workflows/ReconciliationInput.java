package dev.payrelay.workflows;

/**
 * Start argument of {@link ReconciliationWorkflow}, and of each run it continues as new.
 *
 * @param channel the channel name, e.g. {@code sandbox}
 * @param date the statement day, ISO-8601 ({@code yyyy-MM-dd}), in the channel's settlement time
 *     zone (UTC for the sandbox)
 * @param limits how the day's runs are cut, or null for {@link ReconciliationLimits#DEFAULTS};
 *     fixed at the day's first run and carried to every run it continues as
 * @param progress where the day's previous run stopped when it continued as new; null to start the
 *     day
 */
public record ReconciliationInput(
    String channel, String date, ReconciliationLimits limits, ReconciliationProgress progress) {

  /** The day's start with the default limits. */
  public ReconciliationInput(String channel, String date) {
    this(channel, date, null, null);
  }
}
